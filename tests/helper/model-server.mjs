// SPDX-License-Identifier: Apache-2.0
// A scripted stand-in for a vendor's model API, for the end-to-end tests
// that drive the real agent CLIs (t0535, t0536). Node's standard library
// only.
//
//   node model-server.mjs --script FILE --log FILE --port-file FILE
//                         [--lifetime SECONDS] [--final TEXT]
//                         [--cert PEM --key PEM]
//
// With --cert and --key it speaks HTTPS (the secrets tests, t0535/t0536:
// a test CA standing in for the vendor's public one).
//
// Loopback only: it listens on 127.0.0.1, port 0 (the kernel picks one),
// and writes the port number to --port-file once it listens. Bounded: it
// exits by itself after --lifetime seconds (default 120) and as soon as
// its stdin reaches end of file when stdin is a pipe, so a test that holds
// the pipe's other end stops it by closing it, or by dying.
//
// The "model" follows the script: one shell command per line (blank lines
// and lines starting with # are skipped). It asks the agent to run them
// one at a time through the agent's shell tool and, once it has the result
// of the last one, answers with the final text (--final, default
// "RESOLVED: done"). Which step comes next is read from the conversation
// the agent sends, not kept here: step N is sent when the request already
// holds N tool calls of ours, so a retried request gets the same answer.
//
// Every request is appended to --log as one JSON line
// {"method", "path", "auth", "body"} (body parsed when it is JSON; auth:
// the request's x-api-key, authorization, api-key and x-goog-api-key
// headers), so a test can read what the agent sent back, e.g. the shim's
// deny text in a tool_result, and which key it was sent with.
//
// Protocols spoken. The Anthropic Messages API as Claude Code uses it:
//  - POST /v1/messages (any query, e.g. ?beta=true) with a tool named
//    "Bash" (Copilot CLI's, through its "anthropic" provider: "bash"):
//    the next step. With "stream": true it is server-sent events
//    message_start, content_block_start / content_block_delta /
//    content_block_stop (a text block, then for a command a tool_use block
//    {"name": "Bash"} whose input {"command": …} comes as input_json_delta),
//    message_delta (stop_reason "tool_use", or "end_turn" with the final
//    text), message_stop; without "stream" the same message as one JSON
//    object.
//  - POST /v1/messages without that tool (title generation and other side
//    requests): a short text answer, streamed or not as asked.
//  - POST /v1/messages/count_tokens: {"input_tokens": N}.
//
// And the OpenAI Responses API as Codex uses it:
//  - POST /v1/responses offering a shell tool (exec_command): server-sent
//    events response.created, then per output item
//    response.output_item.added / (response.output_text.delta) /
//    response.output_item.done, then response.completed with the items:
//    a function_call {"name": "exec_command", "arguments": "{\"cmd\": …}",
//    "call_id": "call_stepN"} for a command, an assistant message with
//    output_text for the final text. The step is the number of
//    function_call items in the request's input (Codex sends the whole
//    conversation, with each result as a function_call_output item).
//  - GET /v1/responses (Codex's WebSocket attempt): 404, after which
//    Codex falls back to HTTPS by itself.
//
// And the Gemini API as Gemini CLI uses it (GOOGLE_GEMINI_BASE_URL):
//  - POST /v1beta/models/MODEL:streamGenerateContent (?alt=sse) offering
//    the function "run_shell_command": server-sent events, one
//    GenerateContentResponse per `data:` line: a candidate whose parts
//    hold a functionCall {"name": "run_shell_command", "args":
//    {"command": …}, "id": "call_stepN"} for a command, or the final text.
//    The step is the number of such functionCall parts in the request's
//    contents (each result comes back as a functionResponse part).
//  - POST …:generateContent and requests without that function (routing,
//    summaries): a short text answer, "{}" so that a JSON-expecting caller
//    parses it.
//
// Anything else: 404 with an Anthropic-style error object.
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { appendFileSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
	options: {
		script: { type: 'string' },
		log: { type: 'string' },
		'port-file': { type: 'string' },
		lifetime: { type: 'string', default: '120' },
		final: { type: 'string', default: 'RESOLVED: done' },
		cert: { type: 'string' },
		key: { type: 'string' },
	},
});
if (!opt.script || !opt.log || !opt['port-file']) {
	process.stderr.write('model-server: needs --script, --log and --port-file\n');
	process.exit(2);
}
const steps = readFileSync(opt.script, 'utf8').split('\n')
	.filter((l) => l.trim() && !l.startsWith('#'));
// Claude Code's shell tool, and Copilot CLI's (its BYOK "anthropic"
// provider, 1.0.102): the first of these a request offers is used
const SHELL_TOOL_NAMES = ['Bash', 'bash'];
const MAX_BODY = 16 * 1024 * 1024;

// the tool calls of ours already in the conversation
function stepsDone(body, tool) {
	let n = 0;
	for (const m of body.messages || [])
		if (m.role === 'assistant' && Array.isArray(m.content))
			n += m.content.filter((b) => b.type === 'tool_use' && b.name === tool).length;
	return n;
}

// the answer to a Messages request: { blocks, stop }
function answer(body) {
	const tools = (Array.isArray(body.tools) ? body.tools : []).map((t) => t.name);
	const TOOL = SHELL_TOOL_NAMES.find((n) => tools.includes(n));
	if (!TOOL)
		return { blocks: [{ type: 'text', text: 'Scripted session' }], stop: 'end_turn' };
	const n = stepsDone(body, TOOL);
	if (n >= steps.length)
		return { blocks: [{ type: 'text', text: opt.final }], stop: 'end_turn' };
	return {
		blocks: [
			{ type: 'text', text: `Step ${n + 1}.` },
			{ type: 'tool_use', id: `toolu_step${n + 1}`, name: TOOL,
			  input: { command: steps[n], description: `step ${n + 1}` } },
		],
		stop: 'tool_use',
	};
}

let seq = 0;
function message(body, a) {
	return {
		id: `msg_scripted_${++seq}`, type: 'message', role: 'assistant',
		model: body.model || 'scripted', content: a.blocks,
		stop_reason: a.stop, stop_sequence: null,
		usage: { input_tokens: 10, output_tokens: 10 },
	};
}

function sse(res, type, data) {
	res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function stream(res, body, a) {
	const m = message(body, a);
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	sse(res, 'message_start', { message: { ...m, content: [], stop_reason: null } });
	a.blocks.forEach((b, index) => {
		if (b.type === 'text') {
			sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
			sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
		} else {
			sse(res, 'content_block_start', { index,
				content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
			sse(res, 'content_block_delta', { index,
				delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
		}
		sse(res, 'content_block_stop', { index });
	});
	sse(res, 'message_delta', { delta: { stop_reason: a.stop, stop_sequence: null },
		usage: { output_tokens: 10 } });
	sse(res, 'message_stop', {});
	res.end();
}

// The OpenAI Responses API as Codex uses it. Its shell tool depends on
// the version and the model; only the one seen is spoken (codex 0.171.0
// with gpt-4.1: exec_command {"cmd": …}).
const SHELL_TOOLS = {
	exec_command: (cmd) => ({ cmd }),
};

function responsesAnswer(body) {
	const tools = Array.isArray(body.tools) ? body.tools : [];
	const tool = tools.map((t) => t.name).find((n) => n in SHELL_TOOLS);
	const input = Array.isArray(body.input) ? body.input : [];
	const n = input.filter((i) => i.type === 'function_call').length;
	const text = (t) => ({ type: 'message', id: `msg_scripted_${++seq}`, role: 'assistant',
		status: 'completed', content: [{ type: 'output_text', text: t, annotations: [] }] });
	if (!tool)
		return [text('Scripted session')];
	if (n >= steps.length)
		return [text(opt.final)];
	return [{ type: 'function_call', id: `fc_step${n + 1}`, call_id: `call_step${n + 1}`,
		name: tool, arguments: JSON.stringify(SHELL_TOOLS[tool](steps[n])), status: 'completed' }];
}

function responsesStream(res, items) {
	const id = `resp_scripted_${++seq}`;
	const usage = { input_tokens: 10, output_tokens: 10, total_tokens: 20,
		input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	sse(res, 'response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
	items.forEach((item, output_index) => {
		sse(res, 'response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
		if (item.type === 'message')
			sse(res, 'response.output_text.delta', { item_id: item.id, output_index,
				content_index: 0, delta: item.content[0].text });
		sse(res, 'response.output_item.done', { output_index, item });
	});
	sse(res, 'response.completed', { response: { id, object: 'response', status: 'completed',
		output: items, usage } });
	res.end();
}

// The Gemini API as Gemini CLI 0.61.0 uses it: run_shell_command {command}.
const GEMINI_SHELL = 'run_shell_command';

function geminiAnswer(body) {
	const tools = (Array.isArray(body.tools) ? body.tools : [])
		.flatMap((t) => t.functionDeclarations || []).map((f) => f.name);
	const text = (t) => [{ text: t }];
	if (!tools.includes(GEMINI_SHELL))
		return text('{}');
	const n = (Array.isArray(body.contents) ? body.contents : [])
		.filter((c) => c.role === 'model')
		.flatMap((c) => c.parts || [])
		.filter((p) => p.functionCall && p.functionCall.name === GEMINI_SHELL).length;
	if (n >= steps.length)
		return text(opt.final);
	return [{ functionCall: { id: `call_step${n + 1}`, name: GEMINI_SHELL,
		args: { command: steps[n], description: `step ${n + 1}` } } }];
}

function geminiResponse(parts) {
	return {
		candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
		usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
		modelVersion: 'scripted',
	};
}

function gemini(res, body, streamed) {
	const r = geminiResponse(geminiAnswer(body));
	if (!streamed)
		return json(res, 200, r);
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	res.write(`data: ${JSON.stringify(r)}\n\n`);
	res.end();
}

function json(res, code, obj) {
	res.writeHead(code, { 'content-type': 'application/json' });
	res.end(JSON.stringify(obj));
}

function handle(req, res, raw) {
	let body = raw;
	try { body = raw ? JSON.parse(raw) : null; } catch { /* logged as text */ }
	const path = new URL(req.url, 'http://127.0.0.1').pathname;
	const auth = {};
	for (const h of ['x-api-key', 'authorization', 'api-key', 'x-goog-api-key'])
		if (req.headers[h] !== undefined)
			auth[h] = req.headers[h];
	appendFileSync(opt.log, JSON.stringify({ method: req.method, path, auth, body }) + '\n');
	if (req.method === 'POST' && path === '/v1/messages/count_tokens')
		return json(res, 200, { input_tokens: 10 });
	const g = path.match(/^\/v1beta\/models\/[^/:]+:(streamGenerateContent|generateContent)$/);
	if (req.method === 'POST' && g && body && typeof body === 'object')
		return gemini(res, body, g[1] === 'streamGenerateContent');
	if (req.method === 'POST' && path === '/v1/responses' && body && typeof body === 'object')
		return responsesStream(res, responsesAnswer(body));
	if (req.method === 'POST' && path === '/v1/messages' && body && typeof body === 'object') {
		const a = answer(body);
		return body.stream ? stream(res, body, a) : json(res, 200, message(body, a));
	}
	json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no ${path} here` } });
}

const tls = opt.cert ? { cert: readFileSync(opt.cert), key: readFileSync(opt.key) } : null;
const server = (tls ? (f) => createTlsServer(tls, f) : createServer)((req, res) => {
	const chunks = [];
	let size = 0;
	req.on('data', (c) => {
		size += c.length;
		if (size > MAX_BODY) req.destroy();
		else chunks.push(c);
	});
	req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
});

function quit() { process.exit(0); }
setTimeout(quit, Number(opt.lifetime) * 1000).unref();
if (!process.stdin.isTTY) {
	process.stdin.on('end', quit);
	process.stdin.on('close', quit);
	process.stdin.resume();
}
server.listen(0, '127.0.0.1', () => {
	const tmp = `${opt['port-file']}.tmp`;
	writeFileSync(tmp, `${server.address().port}\n`);
	renameSync(tmp, opt['port-file']); // readers never see a partial number
});
