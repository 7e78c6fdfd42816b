/**
 * LocalStack reports the REST API's URL with a host that needs DNS
 * (https://<id>.execute-api.localhost.localstack.cloud:4566/<stage>, or an AWS-style host).
 * It serves the same API on its own port under /_aws/execute-api/<id>/<stage>, a path that
 * needs none (the older /restapis/<id>/<stage>/_user_request_ form is deprecated).
 */
import { LOCALSTACK } from '../config/emulated-aws';

export function localstackApiUrl(apiUrl: string | undefined, endpoint: string = LOCALSTACK.endpoint): string {
  const match = /^https?:\/\/([a-z0-9]+)\.execute-api\.[^/]+\/([^/]+)\/?$/.exec(apiUrl ?? '');
  if (!match)
    throw new Error(
      `Not a REST API stage URL: ${JSON.stringify(apiUrl)} ` +
        '(the LocalStack variant builds a REST API; was it deployed with npm run localstack:deploy?)',
    );
  return `${endpoint}/_aws/execute-api/${match[1]}/${match[2]}`;
}
