/**
 * What other processes and clients need to reach a running local runtime, without loading it:
 * its own endpoints, and how an SDK client talks to its emulators.
 */
import { EMULATED_REGION, LOCAL_CREDENTIALS } from '../config/emulated-aws';

// The SDK's notice that its releases of 2027 will need Node 22 is no answer of the local runtime's (Node 20 is
// supported): a newcomer's `npm start` on Node 20 would open with it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** An AWS SDK client configuration for one of the runtime's emulators. */
export const emulatorClientConfig = (endpoint: string) => ({
  region: EMULATED_REGION,
  endpoint,
  credentials: LOCAL_CREDENTIALS,
});

export const USAGE_PATH = '/_local/usage';
/** Where tools in another process (npm run dlq) find the emulated table and queues. */
export const RESOURCES_PATH = '/_local/resources';

/** Where the emulated resources are, for tests and tools that use the AWS SDK directly. */
export interface LocalResources {
  dynamoEndpoint: string;
  sqsEndpoint: string;
  tableName: string;
  voteQueueUrl: string;
  deadLetterQueueUrl: string;
}
