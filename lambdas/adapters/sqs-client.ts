import { SQSClient } from '@aws-sdk/client-sqs';
import { FUNCTION_ENV } from '../../config/function-env';

/**
 * The functions' SQS client. Its endpoint is read at cold start like every other setting: the SDK
 * would read it at the first send, by then perhaps another local runtime's in the
 * same process (it then warns, and sends to the queue URL's host). On AWS it is unset.
 */
export const sqsClient = () => new SQSClient({ endpoint: process.env[FUNCTION_ENV.sqsEndpoint.name] });
