// A phone's NFC field for Playwright's Chromium, which has none: an NDEFReader that behaves as
// Chrome for Android's does, after the W3C Web NFC draft (https://w3c.github.io/web-nfc/):
// - "The NDEFReader object": an EventTarget with onreading / onreadingerror, scan(options);
// - "The scan() method": rejects with NotAllowedError when the "nfc" permission is denied, or
//   is still to be asked and the page has no transient user activation (Chrome asks only
//   from a user gesture); InvalidStateError while this reader already scans; AbortError when
//   options.signal is aborted (before, or later: then the scan stops delivering readings);
//   NotSupportedError when the phone has no NFC adapter (field.adapter = false);
// - "Handling NFC content": each tag in the field fires a `reading` event (NDEFReadingEvent:
//   serialNumber, the tag's UID as colon-separated lowercase hex pairs, and message.records),
//   only while the page is visible; a tag whose content cannot be read fires `readingerror`.
// The test drives the field with window.__nfcField: tap(serial, records), fail(), and sets
// permission ("granted" | "prompt" | "denied") and adapter. Nothing else of the page is faked.
(() => {
  const field = {
    permission: "prompt",
    adapter: true,
    readers: new Set(),
    tap(serial, records = []) {
      if (document.visibilityState !== "visible") return 0;
      let n = 0;
      for (const reader of field.readers) {
        const e = new Event("reading");
        Object.defineProperty(e, "serialNumber", { value: serial });
        Object.defineProperty(e, "message", { value: { records } });
        reader.dispatchEvent(e);
        if (typeof reader.onreading === "function") reader.onreading(e);
        n += 1;
      }
      return n;
    },
    fail() {
      for (const reader of field.readers) {
        const e = new Event("readingerror");
        reader.dispatchEvent(e);
        if (typeof reader.onreadingerror === "function") reader.onreadingerror(e);
      }
    },
  };
  class NDEFReader extends EventTarget {
    constructor() {
      super();
      this.onreading = null;
      this.onreadingerror = null;
    }

    scan(options = {}) {
      const signal = options.signal;
      if (signal && signal.aborted) return Promise.reject(new DOMException("aborted", "AbortError"));
      if (field.permission === "denied" ||
          (field.permission === "prompt" && !navigator.userActivation.isActive)) {
        return Promise.reject(new DOMException("NFC permission request denied.", "NotAllowedError"));
      }
      if (!field.adapter) return Promise.reject(new DOMException("No NFC adapter or cannot establish connection.", "NotSupportedError"));
      if (field.readers.has(this)) return Promise.reject(new DOMException("A scan() operation is ongoing.", "InvalidStateError"));
      field.permission = "granted";
      field.readers.add(this);
      if (signal) signal.addEventListener("abort", () => field.readers.delete(this));
      return Promise.resolve(undefined);
    }
  }
  window.NDEFReader = NDEFReader;
  window.__nfcField = field;
})();
