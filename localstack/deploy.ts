/**
 * What npm run localstack:deploy and :destroy (bin/localstack.ts) do beyond running cdklocal: its
 * environment, and the site bucket's page put in and taken out.
 */
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SITE_CACHE_CONTROL } from '../config/caching';
import type { SiteConfig } from '../config/site';
import { EMULATED_REGION as REGION, LOCALSTACK } from '../config/emulated-aws';
import { buildSite } from '../frontend/build';
import { pageWithConfig } from '../frontend/page';

const { credentials } = LOCALSTACK;

/** What cdklocal needs: endpoints that work where localhost.localstack.cloud does not resolve. */
export const cdklocalEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({
  ...env,
  AWS_ENDPOINT_URL: LOCALSTACK.endpoint,
  AWS_ENDPOINT_URL_S3: LOCALSTACK.endpoint,
  AWS_ACCESS_KEY_ID: credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  AWS_REGION: REGION,
  AWS_DEFAULT_REGION: REGION,
  // cdklocal drops other AWS_* variables unless listed (the last: node/command-line.ts, the SDK's Node 22 notice).
  AWS_ENVAR_ALLOWLIST: [
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
  ].join(','),
  CDK_DISABLE_CLI_TELEMETRY: '1',
  CDK_DISABLE_VERSION_CHECK: '1',
});

const s3 = () => new S3Client({ region: REGION, endpoint: LOCALSTACK.endpoint, forcePathStyle: true, credentials });

/**
 * CloudFront and BucketDeployment are paid LocalStack features: upload the page to the website
 * bucket directly. The bucket answers every other path with the page too (its error document),
 * which then says "not found" itself.
 */
export async function uploadSite(bucket: string, config: SiteConfig): Promise<void> {
  const client = s3();
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'index.html',
      Body: pageWithConfig(buildSite().page, config),
      ContentType: 'text/html; charset=utf-8',
      CacheControl: SITE_CACHE_CONTROL,
    }),
  );
  client.destroy();
  console.log(`Uploaded the page to s3://${bucket}`);
}

/** Deletes every object of the bucket, so that the stack's delete can remove it. */
export async function emptyBucket(bucket: string): Promise<void> {
  const client = s3();
  for (let page = 0; page < 100; page++) {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (keys.length === 0) break;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
  }
  client.destroy();
}
