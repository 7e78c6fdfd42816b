import { Logger } from '@aws-lambda-powertools/logger';
import { FUNCTION_ENV } from '../../config/function-env';

/** Structured JSON logs; level and service name come from the function's environment. */
export const logger = new Logger({ serviceName: process.env[FUNCTION_ENV.serviceName.name] ?? 'poll' });
