// SPDX-License-Identifier: Apache-2.0
// A tiny loopback HTTP + UDP server for the fs+api tests (t0612) and the
// proxy bench. Node's standard library only.
//
//   node http-udp-server.mjs --name NAME --port-file FILE --log FILE
//                            [--lifetime SECONDS]
//
// Listens on 127.0.0.1 (TCP, port 0: the kernel picks one) and on UDP at
// the same port number; writes the port to --port-file once both listen.
// Every HTTP request is answered "hello from NAME" and logged as
// "http METHOD URL host=HOST" (a request with a body is answered with its
// length, "/big…" with 1 MiB); every datagram is logged as "udp TEXT".
// Bounded: it exits after --lifetime seconds (default 120) and when its
// stdin reaches end of file if stdin is a pipe.
import http from 'node:http';
import dgram from 'node:dgram';
import fs from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, def) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : def;
};
const name = opt('--name', 'server');
const portFile = opt('--port-file');
const log = opt('--log');
const lifetime = Number(opt('--lifetime', '120'));
const note = (line) => fs.appendFileSync(log, line + '\n');

const server = http.createServer((req, res) => {
	note(`http ${req.method} ${req.url} host=${req.headers.host || ''}`);
	req.resume();
	let got = 0;
	req.on('data', (chunk) => { got += chunk.length; });
	req.on('end', () => {
		// /big: a MiB back, to show nothing is lost on the way
		const body = req.url.startsWith('/big') ? 'x'.repeat(1 << 20)
			: got ? `hello from ${name}, got ${got}\n` : `hello from ${name}\n`;
		res.writeHead(200, { 'Content-Type': 'text/plain',
			'Content-Length': Buffer.byteLength(body) });
		res.end(body);
	});
});
server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () => {
	const port = server.address().port;
	const udp = dgram.createSocket('udp4');
	udp.on('message', (msg) => note(`udp ${msg.toString().trim()}`));
	udp.on('error', () => process.exit(3));
	udp.bind(port, '127.0.0.1', () => fs.writeFileSync(portFile, `${port}\n`));
});
setTimeout(() => process.exit(0), lifetime * 1000).unref();
if (!process.stdin.isTTY) {
	process.stdin.on('end', () => process.exit(0));
	process.stdin.resume();
}
