import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs; level and service name come from the function's environment. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'poll' });
