/**
 * The static frontend: a private bucket behind CloudFront. `cdk synth` builds
 * the site (frontend/build.ts) as the asset's bundling step; the deployment
 * writes a config.json holding the API's URL, resolved at deploy time.
 */
import { DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Distribution, HttpVersion, PriceClass, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { SiteConfig } from '../config/app-config';
import { ASSETS_PREFIX, buildFrontend, FRONTEND_DIR } from '../frontend/build';
import { retainedLogGroup } from './functions';
import { acknowledge } from './nag';

/** How long browsers and CloudFront keep each kind of file; the local runtime serves the same headers. */
export const SITE_CACHE_CONTROL = {
  /** Content-hashed: a new build has new names, so these never change. */
  assets: 'public, max-age=31536000, immutable',
  /** index.html and config.json name the current assets and API: always revalidate. */
  pages: 'public, max-age=0, must-revalidate',
} as const;

/**
 * `cloudfront`: a private bucket behind a distribution (AWS). `bucket-website`: the
 * bucket's own website endpoint, for LocalStack's free plan, which has no CloudFront
 * and no CDK BucketDeployment; `npm run localstack:deploy` uploads the site there.
 */
export type SiteHosting = 'cloudfront' | 'bucket-website';

export class PollSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution?: Distribution;
  /** The site's origin, the only origin the API answers CORS for. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: { hosting: SiteHosting }) {
    super(scope, id);
    if (props.hosting === 'bucket-website') {
      this.bucket = new Bucket(this, 'Bucket', {
        websiteIndexDocument: 'index.html',
        // Page paths like /poll/{id} are not objects: the app's index.html takes over.
        websiteErrorDocument: 'index.html',
        publicReadAccess: true,
        blockPublicAccess: BlockPublicAccess.BLOCK_ACLS_ONLY,
        encryption: BucketEncryption.S3_MANAGED,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      this.origin = this.bucket.bucketWebsiteUrl;
      acknowledge(
        this.bucket,
        ['AwsSolutions-S1', 'AwsSolutions-S2', 'AwsSolutions-S5', 'AwsSolutions-S10'],
        'LocalStack variant only: its free plan has no CloudFront, so the site is a public website bucket (HTTP) on the developer’s machine.',
      );
      return;
    }
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The site is a build output: deleting the stack deletes it.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Poll site',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
      },
      // Page paths like /poll/{id} are not objects: the bucket answers 403, and the app's index.html takes over.
      errorResponses: [403, 404].map((httpStatus) => ({ httpStatus, responseHttpStatus: 200, responsePagePath: '/index.html', ttl: Duration.minutes(1) })),
      // North America and Europe edges only: the cheapest price class.
      priceClass: PriceClass.PRICE_CLASS_100,
      httpVersion: HttpVersion.HTTP2_AND_3,
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;
    acknowledge(this.bucket, ['AwsSolutions-S1'], 'A build output read only by CloudFront (origin access control): server access logs would record only CloudFront’s fetches.');
    acknowledge(
      this.distribution,
      ['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3'],
      'A public static site for anyone with a poll link: no geo restriction; WAF and access logs cost more than the site at small volume and record nothing the API does not.',
    );
    acknowledge(
      this.distribution,
      ['AwsSolutions-CFR4'],
      'The default *.cloudfront.net certificate cannot set a minimum TLS version; with a custom domain and certificate, set minimumProtocolVersion to TLSv1.2_2021.',
    );
  }

  /** Uploads the built site and a config.json for the page (CloudFront hosting only). */
  deploy(config: SiteConfig): void {
    if (!this.distribution) return;
    const site = Source.asset(FRONTEND_DIR, {
      bundling: {
        // Never used: the local build below always succeeds where `cdk synth` runs (it needs only esbuild).
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
        local: {
          tryBundle(outputDir) {
            buildFrontend(outputDir);
            return true;
          },
        },
      },
    });
    const assets = `${ASSETS_PREFIX}/*`;
    // Both deployments run in one CDK-provided function; give it a log group that expires.
    const logGroup = retainedLogGroup(this, 'DeployLogs');
    const deployAssets = new BucketDeployment(this, 'DeployAssets', {
      sources: [site],
      destinationBucket: this.bucket,
      logGroup,
      include: [assets],
      exclude: ['*'],
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.assets)],
      // Keep older hashed files: a browser holding yesterday's index.html still loads.
      prune: false,
    });
    const deployPages = new BucketDeployment(this, 'DeployPages', {
      sources: [site, Source.jsonData('config.json', config)],
      destinationBucket: this.bucket,
      logGroup,
      exclude: [assets],
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.pages)],
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/config.json'],
    });
    // New pages name new assets: upload those first.
    deployPages.node.addDependency(deployAssets);
  }
}
