import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/**
 * A model host on 127.0.0.1 in the Hugging Face URL layout (`/<id>/resolve/<revision>/<file>`)
 * serving files from a local models folder, with byte ranges (transformers.js probes with
 * `Range: bytes=0-0`). Records every request path, so a test can see what was fetched.
 */
export interface ModelHost {
  url: string;
  requests: { method: string; path: string; range?: string }[];
  close(): Promise<void>;
}

export async function startModelHost(modelsDir: string): Promise<ModelHost> {
  const requests: ModelHost['requests'] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const range = req.headers.range;
    requests.push({ method: req.method ?? 'GET', path, ...(range ? { range } : {}) });
    const m = /^\/(.+?)\/resolve\/[^/]+\/(.+)$/.exec(path);
    const file = m ? normalize(join(modelsDir, m[1]!, m[2]!)) : '';
    if (!m || !file.startsWith(modelsDir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = readFileSync(file);
    const r = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    if (r) {
      const start = Number(r[1]);
      const end = r[2] ? Math.min(Number(r[2]), body.length - 1) : body.length - 1;
      res.writeHead(206, {
        'content-type': 'application/octet-stream',
        'content-range': `bytes ${start}-${end}/${body.length}`,
        'content-length': String(end - start + 1),
      });
      res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
