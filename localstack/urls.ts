/**
 * The REST API's URL as CloudFormation reports it on LocalStack names an AWS
 * host (https://<id>.execute-api.<region>.amazonaws.com/<stage>/). LocalStack
 * serves the same API on its own port, at a path that needs no DNS.
 */
import { LOCALSTACK } from '../config/emulated-aws';

export function localstackApiUrl(apiUrl: string | undefined, endpoint: string = LOCALSTACK.endpoint): string {
  const match = /^https?:\/\/([a-z0-9]+)\.execute-api\.[^/]+\/([^/]+)\/?$/.exec(apiUrl ?? '');
  if (!match) throw new Error(`Not a REST API stage URL: ${JSON.stringify(apiUrl)} (the LocalStack variant builds a REST API; was it deployed with npm run localstack:deploy?)`);
  return `${endpoint}/restapis/${match[1]}/${match[2]}/_user_request_`;
}
