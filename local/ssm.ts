/**
 * Just enough of SSM Parameter Store for the functions' CAPTCHA secret: GetParameter
 * over the JSON protocol, on loopback. Nothing else in the app uses SSM.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startSsm(
  parameters: Record<string, string>,
): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop();
      let name: string | undefined;
      try {
        name = JSON.parse(Buffer.concat(chunks).toString('utf8')).Name;
      } catch {
        name = undefined;
      }
      const value = name === undefined ? undefined : parameters[name];
      const [status, body] =
        action !== 'GetParameter'
          ? [400, { __type: 'UnsupportedOperation', message: `The local SSM answers GetParameter only, not ${action}` }]
          : value === undefined
            ? [400, { __type: 'ParameterNotFound', message: `No parameter ${name}` }]
            : [200, { Parameter: { Name: name, Type: 'SecureString', Value: value, Version: 1 } }];
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
