"""The league: many clubs, one store (docs/league.md).

A club's results go out as versioned messages on the ``league/`` topic tree (``messages``),
read from its journal and night file (``club_feed``) and published to the club's own broker
(``sender``); mosquitto's own bridge (``bridge``) carries them to the league's broker, where
one or more league services (``consumer``) store them idempotently in PostgreSQL
(``store``, ``migrations``). The league site (``site``) shows the standings, the clubs and
the hand records. Player ratings and player pages wait for the club players database.
"""
