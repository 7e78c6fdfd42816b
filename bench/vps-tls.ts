/**
 * The TLS set-ups npm run bench:vps measures (cost/estimate/vps.ts TLS_SETUPS): Caddy as docs/vps.md
 * deployed it, Caddy and nginx with upstream keep-alive for every connection the bench holds, and the
 * edition's own node:https. One self-signed P-256 certificate serves them all (what certbot issues by
 * default is a P-256 key too); nothing is fetched from the network.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { CommandFailure } from '../node/command-line';
import { TLS_SETUPS, type TlsSetup } from '../cost/estimate/vps';

export interface CertFiles {
  cert: string;
  key: string;
}

/** A certificate for 127.0.0.1, valid two days, in `home`. */
export function makeCertificate(home: string): CertFiles {
  const files = { cert: join(home, 'cert.pem'), key: join(home, 'key.pem') };
  const made = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', files.key, '-out', files.cert, '-days', '2', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0)
    throw new CommandFailure(`openssl could not make a test certificate (apt-get install openssl): ${made.stderr}`);
  return files;
}

/**
 * A bare node:http server answering a fixed JSON body the size of the options answer: the ceiling.
 * BARE_WORKERS > 1: that many node:cluster workers on one port; BARE_CERT and BARE_KEY: node:https.
 */
export const BARE_SERVER = `
const cluster = require('node:cluster');
const workers = Number(process.env.BARE_WORKERS || 1);
const scheme = process.env.BARE_SCHEME;
if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (worker, address) => {
    if (++listening === workers) console.log('listening on ' + scheme + '://127.0.0.1:' + address.port);
  });
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  const body = JSON.stringify({ id: 'x'.repeat(21), options: ['Option A', 'Option B', 'Option C'] });
  const read = require('node:fs').readFileSync;
  const tls = process.env.BARE_CERT
    ? { cert: read(process.env.BARE_CERT), key: read(process.env.BARE_KEY) }
    : undefined;
  const handler = (req, res) => {
    req.resume();
    req.on('end', () => {
      const length = Buffer.byteLength(body);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
      res.end(body);
    });
  };
  const server = tls ? require('node:https').createServer(tls, handler) : require('node:http').createServer(handler);
  server.listen(0, '127.0.0.1', function () {
    if (workers === 1) console.log('listening on ' + scheme + '://127.0.0.1:' + this.address().port);
  });
}`;

/** A proxy in front of the app and the bare server: its process, and the HTTPS URL of each. */
export interface Front {
  child: ChildProcess;
  app: string;
  bare: string;
}

interface Terminator {
  /** The command it needs, and how to install it. */
  needs?: { command: string; versionArgs: string[]; install: string };
  /** What ran it, with its version, for the figures file. */
  via(): string;
  /** A proxy: started in front of both origins; the edition's own TLS has none. */
  front?(origins: { app: string; bare: string }, ports: [number, number], options: FrontOptions): Promise<Front>;
}

interface FrontOptions {
  home: string;
  cert: CertFiles;
  /** The box's HTTP workers: a proxy runs as many processes of its own where it has them. */
  workers: number;
  /** The bench's concurrent connections: upstream keep-alive holds at least that many. */
  connections: number;
  freePort: () => Promise<number>;
}

const version = (command: string, args: string[]) => {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`.trim().split('\n')[0];
};

const CADDY = { command: 'caddy', versionArgs: ['version'], install: 'apt-get install -y caddy' };
const NGINX = { command: 'nginx', versionArgs: ['-v'], install: 'apt-get install -y nginx' };

/** Caddy with a site per origin; `transport` is what goes in each reverse_proxy block. */
async function caddy(
  origins: { app: string; bare: string },
  ports: [number, number],
  { home, cert }: FrontOptions,
  transport: string,
): Promise<Front> {
  const config = join(home, 'Caddyfile');
  const site = (port: number, origin: string) =>
    `https://127.0.0.1:${port} {\n\ttls ${cert.cert} ${cert.key}\n` +
    `\treverse_proxy ${origin.replace('http://', '')}${transport}\n}\n`;
  writeFileSync(
    config,
    '{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n\tlog default {\n\t\tlevel ERROR\n\t}\n}\n' +
      site(ports[0], origins.app) +
      site(ports[1], origins.bare),
  );
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
  const child = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], { env, stdio: 'ignore' });
  return answering(child, ports, 'Caddy');
}

/** nginx as Debian packages it, run from a folder of its own with a config of the bench's. */
async function nginx(
  origins: { app: string; bare: string },
  ports: [number, number],
  { home, cert, workers, connections }: FrontOptions,
): Promise<Front> {
  mkdirSync(join(home, 'temp'), { recursive: true });
  const server = (name: string, port: number, origin: string) => `
  upstream ${name} { server ${origin.replace('http://', '')}; keepalive ${connections}; }
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${cert.cert};
    ssl_certificate_key ${cert.key};
    location / {
      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`;
  const config = join(home, 'nginx.conf');
  writeFileSync(
    config,
    `worker_processes ${workers};\ndaemon off;\npid ${join(home, 'nginx.pid')};\n` +
      `error_log ${join(home, 'error.log')} error;\nevents { worker_connections 4096; }\n` +
      `http {\n  access_log off;\n  proxy_max_temp_file_size 0;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
        .map((t) => `  ${t}_temp_path ${join(home, 'temp')};\n`)
        .join('') +
      server('app', ports[0], origins.app) +
      server('bare', ports[1], origins.bare) +
      '\n}\n',
  );
  const child = spawn('nginx', ['-c', config, '-p', home, '-e', join(home, 'error.log')], { stdio: 'ignore' });
  return answering(child, ports, 'nginx');
}

/** Resolves once both sites answer over TLS. */
async function answering(child: ChildProcess, ports: [number, number], name: string): Promise<Front> {
  const [app, bare] = ports.map((port) => `https://127.0.0.1:${port}`);
  for (let tries = 0; tries < 100; tries++) {
    const up = await Promise.all(
      [app, bare].map((url) => autocannon({ url: `${url}/`, connections: 1, amount: 1 }).catch(() => undefined)),
    );
    if (up.every((u) => u && u['2xx'] + u.non2xx > 0)) return { child, app, bare };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new CommandFailure(`${name} did not answer on ${app} and ${bare} within 10 s.`);
}

export const TERMINATORS: Record<TlsSetup, Terminator> = {
  caddy: {
    needs: CADDY,
    via: () => `Caddy ${version('caddy', ['version']).split(' ')[0]}, reverse_proxy with its defaults`,
    front: (origins, ports, options) => caddy(origins, ports, options, ''),
  },
  caddyKeepAlive: {
    needs: CADDY,
    via: () => `Caddy ${version('caddy', ['version']).split(' ')[0]}, keepalive_idle_conns_per_host at -c`,
    front: (origins, ports, options) =>
      caddy(
        origins,
        ports,
        options,
        ` {\n\t\ttransport http {\n\t\t\tkeepalive_idle_conns_per_host ${options.connections}\n\t\t}\n\t}`,
      ),
  },
  nginx: {
    needs: NGINX,
    via: () => `${version('nginx', ['-v']).replace('nginx version: ', '')}, upstream keepalive at -c`,
    front: nginx,
  },
  node: { via: () => `node:https ${process.version} in each process that serves HTTP` },
};

/** What a set-up lacks on this machine, as one line that says how to get it; undefined: it can run. */
export function missing(setup: TlsSetup): string | undefined {
  const needs = TERMINATORS[setup].needs;
  if (!needs || spawnSync(needs.command, needs.versionArgs).status === 0) return undefined;
  return `${TLS_SETUPS[setup]} needs ${needs.command}, which is not on the PATH here: ${needs.install}`;
}
