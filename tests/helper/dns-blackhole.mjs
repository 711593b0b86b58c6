// SPDX-License-Identifier: Apache-2.0
// A DNS server that never answers: it logs the source port of every
// query it gets ("query PORT") and drops it. The fs+api resolver test
// (t0614) points a resolv.conf at it, inside a network namespace of its
// own, to make a lookup hang for as long as the resolver waits.
//   node dns-blackhole.mjs --log FILE [--lifetime SECONDS]
// Bounded: it exits after --lifetime seconds (default 120) and when its
// stdin reaches end of file if stdin is a pipe.
import dgram from 'node:dgram';
import fs from 'node:fs';

const opt = (name, dflt) => {
	const i = process.argv.indexOf(name);
	return i > 0 ? process.argv[i + 1] : dflt;
};
const log = opt('--log');
const s = dgram.createSocket('udp4');
s.on('message', (_msg, rinfo) => fs.appendFileSync(log, `query ${rinfo.port}\n`));
s.on('error', () => process.exit(3));
s.bind(53, '127.0.0.1', () => fs.appendFileSync(log, 'listening\n'));
setTimeout(() => process.exit(0), Number(opt('--lifetime', '120')) * 1000).unref();
if (!process.stdin.isTTY) {
	process.stdin.on('end', () => process.exit(0));
	process.stdin.resume();
}
