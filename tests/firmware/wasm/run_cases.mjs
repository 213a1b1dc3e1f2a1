// Run firmware cases (tests/firmware/mp/cases_*.py) on the 32-bit MicroPython of the
// WebAssembly port (package.json: sys.maxsize 2**31-1, ticks period 2**30), each case in a
// fresh VM in a worker thread of its own (a VM's timers left behind must not fire into the
// next one's). Usage: node run_cases.mjs DIR... -- MODULE:CASE...  Every .py and .json file
// in the DIRs is put in the VM's /lib; each case prints one line:
// RESULT {"case", "ok", "skip", "error", "output"}. An item "script:PATH" runs that script
// instead (its closing asyncio.run(main()) awaited on the VM's own loop), ARGS after it in
// sys.argv, printing what it prints: node run_cases.mjs DIR... -- script:PATH ARG...
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const CASE_TIMEOUT_MS = 120000;

const RUN = `
import sys, json
sys.path[:0] = ["/lib"]
import os
if not hasattr(os, "urandom"):  # every board's port has it; this VM's os module does not
    import random
    os.urandom = lambda n: bytes(random.getrandbits(8) for _ in range(n))

async def _run_case(module, name, tmp):
    try:
        result = getattr(__import__(module), name)(tmp)
        if result is not None and hasattr(result, "send"):
            import asyncio  # in a task: the VM's top-level coroutine cannot be timed out
            result = await asyncio.create_task(result)
        out = {"ok": True, "skip": result if isinstance(result, str) else None}
    except Exception as e:
        sys.print_exception(e)
        out = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
    return out
`;

async function runScript({ files, script, argv }) {
  const { loadMicroPython } = await import("@micropython/micropython-webassembly-pyscript");
  const mp = await loadMicroPython({
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  mp.FS.mkdir("/lib");
  mp.FS.mkdir("/case");
  for (const [fname, data] of files) mp.FS.writeFile("/lib/" + fname, data);
  mp.runPython(RUN + `\nsys.argv[:] = ${JSON.stringify(["script", "/case", ...argv])}`);
  const text = readFileSync(script, "utf8").replace(/asyncio\.run\(main\(\)\)\s*$/, "await asyncio.create_task(main())");
  await mp.runPythonAsync(text);
}

async function runOne({ files, module, name }) {
  const { loadMicroPython } = await import("@micropython/micropython-webassembly-pyscript");
  const lines = [];
  const mp = await loadMicroPython({
    stdout: (line) => lines.push(line),
    stderr: (line) => lines.push(line),
  });
  mp.FS.mkdir("/lib");
  mp.FS.mkdir("/case");
  for (const [fname, data] of files) mp.FS.writeFile("/lib/" + fname, data);
  let out;
  try {
    mp.runPython(RUN);
    await mp.runPythonAsync(
      `_out = json.dumps(await _run_case(${JSON.stringify(module)}, ${JSON.stringify(name)}, "/case"))`);
    out = JSON.parse(mp.globals.get("_out"));
  } catch (e) {
    out = { ok: false, error: String(e) };
  }
  if (!out.ok) out.output = lines.join("\n");
  return out;
}

function inWorker(job) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    const timer = setTimeout(() => {
      resolve({ ok: false, error: `no result in ${CASE_TIMEOUT_MS} ms` });
      worker.terminate();
    }, CASE_TIMEOUT_MS);
    worker.on("message", (out) => {
      clearTimeout(timer);
      resolve(out);
      worker.terminate();
    });
    worker.on("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: String(e) });
    });
  });
}

if (isMainThread) {
  const args = process.argv.slice(2);
  const split = args.indexOf("--");
  const files = [];
  for (const dir of args.slice(0, split)) {
    for (const fname of readdirSync(dir)) {
      if (fname.endsWith(".py") || fname.endsWith(".json")) {
        files.push([fname, readFileSync(join(dir, fname))]);
      }
    }
  }
  const items = args.slice(split + 1);
  if (items.length && items[0].startsWith("script:")) {
    await runScript({ files, script: items[0].slice(7), argv: items.slice(1) });
    process.exit(0);
  }
  for (const item of items) {
    const [module, name] = item.split(":");
    const out = await inWorker({ files, module, name });
    out.case = item;
    console.log("RESULT " + JSON.stringify(out));
  }
} else {
  parentPort.postMessage(await runOne(workerData));
}
