// Loaded with `node --import` into the conformance CLI's process only (never into the server or client under
// test), by the runner (src/conformance.ts).
//
// 1. Node 20. The suite's bundle (0.2.0-alpha.12) starts with `import { globSync } from "fs"`; `fs.globSync`
//    arrived in Node 22, so on Node 20 the CLI dies at link time with "The requested module 'fs' does not
//    provide an export named 'globSync'". On Node < 22 ./hooks.mjs hands the bundle an `fs` that adds a
//    `globSync` which throws when called: only the CLI's `tier-check` subcommand uses it, and we never run it.
// 2. Loopback. The suite's mock servers (client leg) call `listen(0)` with no host, i.e. on every interface.
//    A port-only listen() is bound to 127.0.0.1 instead (CONFORMANCE_BIND_HOST overrides, '' disables).
//    Binding to a host makes Node resolve it with dns.lookup, which answers on a later tick even for an IP
//    literal, so `server.address()` read right after listen() would be null (the suite does read it). While
//    our listen() runs, dns.lookup therefore answers the bind address synchronously.

import dns from 'node:dns';
import * as fs from 'node:fs';
import { register } from 'node:module';
import net from 'node:net';

if (typeof fs.globSync !== 'function') register('./hooks.mjs', import.meta.url);

const bindHost = process.env.CONFORMANCE_BIND_HOST ?? '127.0.0.1';
const family = net.isIP(bindHost);

if (family !== 0) {
  const lookup = dns.lookup;
  let binding = false;
  dns.lookup = function lookupDuringListen(hostname, ...rest) {
    if (!binding || hostname !== bindHost) return Reflect.apply(lookup, this, [hostname, ...rest]);
    const [options, callback] = rest;
    const done = typeof options === 'function' ? options : callback;
    if (typeof options === 'object' && options?.all) done(null, [{ address: bindHost, family }]);
    else done(null, bindHost, family);
    return {};
  };

  const listen = net.Server.prototype.listen;
  const isPort = (value) => typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
  const isPlainOptions = (value) =>
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof net.Server) &&
    value.host === undefined &&
    value.path === undefined &&
    value.fd === undefined &&
    value.handle === undefined &&
    value._handle === undefined;

  net.Server.prototype.listen = function listenOnLoopback(...args) {
    const [first, second] = args;
    if (isPort(first) && typeof second !== 'string') {
      args.splice(1, 0, bindHost); // listen(port, [backlog], [cb]) → listen(port, host, …)
    } else if (first === undefined || first === null) {
      args.splice(0, 1, 0, bindHost); // listen() / listen(null, cb)
    } else if (typeof first === 'function') {
      args.unshift(0, bindHost); // listen(cb)
    } else if (isPlainOptions(first)) {
      args[0] = { ...first, host: bindHost }; // listen({ port }) / listen({})
    }
    binding = true;
    try {
      return Reflect.apply(listen, this, args);
    } finally {
      binding = false;
    }
  };
}
