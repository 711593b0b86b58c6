// SPDX-License-Identifier: Apache-2.0
// The proxy bench's client (bench/netproxy-bench.sh): N small sequential
// GETs to http://127.0.0.1:PORT/, directly or through the fs+api proxy
// that HTTP_PROXY names, on a new connection each (`fresh`) or on one
// kept-alive connection (`keep`: for the proxy, one CONNECT tunnel, as
// agents that speak HTTPS use it); `bulk`: N GETs of /big (1 MiB each)
// on one kept-alive connection, a large download. `tls-fresh` and
// `tls-keep`: the same small GETs over HTTPS through the proxy's CONNECT
// (a new tunnel and TLS session each, or one), each with the header
// `x-api-key: $BENCH_KEY` (trusting the CAs NODE_EXTRA_CA_CERTS names).
// Prints the milliseconds they took.
//   node http-client.mjs direct|proxy fresh|keep|bulk|tls-fresh|tls-keep PORT N
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';

const [via, mode, port, n] = process.argv.slice(2);
const proxy = via === 'proxy' ? new URL(process.env.HTTP_PROXY) : null;

function get(opts) {
	return new Promise((resolve, reject) => {
		const req = http.request(opts, (res) => {
			res.resume();
			res.on('end', resolve);
		});
		req.on('error', reject);
		req.end();
	});
}

// one CONNECT tunnel to 127.0.0.1:PORT through the proxy
function tunnel() {
	return new Promise((resolve, reject) => {
		const req = http.request({ host: proxy.hostname, port: proxy.port,
			method: 'CONNECT', path: `127.0.0.1:${port}` });
		req.on('connect', (res, socket) => res.statusCode === 200 ?
			resolve(socket) : reject(new Error(`CONNECT ${res.statusCode}`)));
		req.on('error', reject);
		req.end();
	});
}

// N requests one after the other on one socket, HTTP/1.1 by hand: each
// answer is read to its Content-Length before the next request goes.
function keepAlive(socket, path = '/', extra = '') {
	return new Promise((resolve, reject) => {
		let buf = Buffer.alloc(0), left = Number(n);
		const ask = () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}\r\n`);
		socket.on('data', (d) => {
			buf = Buffer.concat([buf, d]);
			for (;;) {
				const end = buf.indexOf('\r\n\r\n');
				if (end < 0)
					return;
				const len = Number(/content-length: *(\d+)/i.exec(buf.subarray(0, end).toString())[1]);
				if (buf.length < end + 4 + len)
					return;
				buf = buf.subarray(end + 4 + len);
				if (--left === 0)
					return resolve();
				ask();
			}
		});
		socket.on('error', reject);
		ask();
	});
}

// TLS on a CONNECT tunnel (no SNI for an address, as curl and node do)
async function tlsTunnel() {
	const raw = await tunnel();
	return new Promise((resolve, reject) => {
		const s = tls.connect({ socket: raw, host: '127.0.0.1', ALPNProtocols: ['http/1.1'] },
			() => resolve(s));
		s.on('error', reject);
	});
}

async function main() {
	const t0 = process.hrtime.bigint();
	const key = `x-api-key: ${process.env.BENCH_KEY || 'none'}\r\n`;
	if (mode === 'tls-keep') {
		await keepAlive(await tlsTunnel(), '/', key);
	} else if (mode === 'tls-fresh') {
		const total = Number(n);
		for (let i = 0; i < total; i++) {
			const s = await tlsTunnel();
			await new Promise((resolve, reject) => {
				let buf = Buffer.alloc(0);
				s.on('data', (d) => { buf = Buffer.concat([buf, d]); });
				s.on('end', resolve);
				s.on('error', reject);
				s.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${key}Connection: close\r\n\r\n`);
			});
		}
	} else if (mode === 'keep' || mode === 'bulk') {
		const socket = proxy ? await tunnel()
			: await new Promise((resolve, reject) => {
				const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
				s.on('error', reject);
			});
		socket.setNoDelay(true);
		await keepAlive(socket, mode === 'bulk' ? '/big' : '/');
	} else {
		const base = proxy
			? { host: proxy.hostname, port: proxy.port, path: `http://127.0.0.1:${port}/` }
			: { host: '127.0.0.1', port, path: '/' };
		for (let i = 0; i < Number(n); i++)
			await get({ ...base, agent: false,
				headers: { Host: `127.0.0.1:${port}` } });
	}
	const ms = Number(process.hrtime.bigint() - t0) / 1e6;
	// a pipe's writes are asynchronous: exit once the number is out
	process.stdout.write(`${ms.toFixed(1)}\n`, () => process.exit(0));
}
main().catch((e) => { console.error(e.message); process.exit(1); });
