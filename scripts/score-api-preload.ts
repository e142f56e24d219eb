/**
 * The `--require` preload the score-api trials give Node: it sends snapshot.js's two hosts
 * (rpc.snapshot.org, through `getProvider(network)`, and blockfinder.snapshot.org, through
 * `getSnapshots`) to a gateway on 127.0.0.1 (test/score-api-host/upstreams.ts); every other request
 * of score-api is untouched. Used by scripts/score-api-trial.ts and scripts/score-api-gate-trial.ts.
 */

/** The preload's source (CommonJS), for the gateway's two URLs. */
export const snapshotHostsPreload = (gateway: { broviderUrl: string; blockFinderUrl: string }) => `
// Sends snapshot.js's two hosts to the trial's gateway on 127.0.0.1; everything else is untouched.
const http = require('http');
const https = require('https');
const routes = { 'rpc.snapshot.org': ${JSON.stringify(gateway.broviderUrl)}, 'blockfinder.snapshot.org': ${JSON.stringify(gateway.blockFinderUrl)} };
function reroute(original) {
  return function (input, options, callback) {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
    const host = url ? url.hostname : input && (input.hostname || input.host);
    const target = routes[host];
    if (!target) return original.apply(this, arguments);
    const base = new URL(target);
    const path = url ? url.pathname + url.search : input.path || '/';
    const merged = Object.assign({}, url ? {} : input, typeof options === 'object' && options ? options : {}, {
      protocol: 'http:', hostname: base.hostname, host: base.hostname, port: base.port,
      path: base.pathname.replace(/\\/$/, '') + (path === '/' ? '' : path), agent: undefined
    });
    const cb = typeof options === 'function' ? options : callback;
    return http.request(merged, cb);
  };
}
https.request = reroute(https.request);
https.get = function () { const req = https.request.apply(this, arguments); req.end(); return req; };
`
