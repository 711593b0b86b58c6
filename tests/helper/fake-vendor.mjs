// SPDX-License-Identifier: Apache-2.0
// A fake vendor API for the secrets tests (t0617): HTTPS with a test CA
// (or plain HTTP without --cert), on loopback. Node's standard library
// only.
//
//   node fake-vendor.mjs --port-file FILE --log FILE [--cert PEM --key PEM]
//                        [--swap-cert PEM --swap-key PEM] [--lifetime SECONDS]
//
// Every request is logged as one JSON line {"method", "path", "headers",
// "body_bytes", "socket", "resumed"} (socket: a number per TCP connection, so a test
// sees kept-alive requests share one) and answered 200 with
// {"ok": true, "body_bytes": N}. GET /sse streams five server-sent events
// 100 ms apart, so a test sees a stream pass through as it comes.
// GET /swap-cert serves --swap-cert from the next connection on, with new
// session ticket keys (a changed server at the same address); "resumed"
// says a connection resumed a TLS session. Bounded:
// it exits after --lifetime seconds (default 120) and when its stdin
// reaches end of file if stdin is a pipe.
import http from 'node:http';
import https from 'node:https';
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
	options: {
		'port-file': { type: 'string' },
		log: { type: 'string' },
		cert: { type: 'string' },
		key: { type: 'string' },
		'swap-cert': { type: 'string' },
		'swap-key': { type: 'string' },
		lifetime: { type: 'string', default: '120' },
	},
});
let sockets = 0;

function handle(req, res) {
	let got = 0;
	req.on('data', (chunk) => { got += chunk.length; });
	req.on('end', () => {
		fs.appendFileSync(opt.log, JSON.stringify({ method: req.method, path: req.url,
			headers: req.headers, body_bytes: got, socket: req.socket.agId,
			resumed: opt.cert ? req.socket.isSessionReused() : false }) + '\n');
		if (req.url === '/swap-cert')
			server.setSecureContext({ cert: fs.readFileSync(opt['swap-cert']),
				key: fs.readFileSync(opt['swap-key']) });
		if (req.url === '/sse') {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			let n = 0;
			const t = setInterval(() => {
				res.write(`data: event ${++n} at ${Date.now()}\n\n`);
				if (n === 5) {
					clearInterval(t);
					res.end();
				}
			}, 100);
			return;
		}
		const body = JSON.stringify({ ok: true, body_bytes: got }) + '\n';
		res.writeHead(200, { 'content-type': 'application/json',
			'content-length': Buffer.byteLength(body) });
		res.end(body);
	});
}

const server = opt.cert
	? https.createServer({ cert: fs.readFileSync(opt.cert), key: fs.readFileSync(opt.key) }, handle)
	: http.createServer(handle);
server.on(opt.cert ? 'secureConnection' : 'connection', (s) => { s.agId = ++sockets; });
server.listen(0, '127.0.0.1', () => {
	fs.writeFileSync(opt['port-file'] + '.tmp', String(server.address().port));
	fs.renameSync(opt['port-file'] + '.tmp', opt['port-file']);
});
setTimeout(() => process.exit(0), Number(opt.lifetime) * 1000).unref();
if (!process.stdin.isTTY) {
	process.stdin.on('end', () => process.exit(0));
	process.stdin.resume();
}
