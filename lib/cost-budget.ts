/**
 * `-c monthlyBudgetUsd=<n> -c budgetEmail=<address>`: an AWS Budgets cost budget for the month, on the
 * stack's cost allocation tag (config COST_ALLOCATION_TAG, which the stack puts on all it creates), that
 * e-mails the address at each of BUDGET_ALERT_PERCENTAGES of actual and of forecast spend. Budgets read
 * a tag only once it is activated in Billing → Cost allocation tags (docs/deploy.md).
 */
import { Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import { Construct } from 'constructs';
import { BUDGET_ALERT_PERCENTAGES, COST_ALLOCATION_TAG } from '../config/budget';

export interface BudgetSettings {
  monthlyUsd: number;
  email: string;
}

/** How AWS Budgets names a user-defined tag's value in a cost filter. */
export const budgetTagFilter = (tag: { key: string; value: string }): string => `user:${tag.key}$${tag.value}`;

export class CostBudget extends Construct {
  readonly budget: CfnBudget;

  constructor(scope: Construct, id: string, props: BudgetSettings) {
    super(scope, id);
    this.budget = new CfnBudget(this, 'Budget', {
      budget: {
        budgetName: `${Stack.of(this).stackName}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: props.monthlyUsd, unit: 'USD' },
        costFilters: { TagKeyValue: [budgetTagFilter(COST_ALLOCATION_TAG)] },
      },
      notificationsWithSubscribers: (['ACTUAL', 'FORECASTED'] as const).flatMap((notificationType) =>
        BUDGET_ALERT_PERCENTAGES.map((threshold) => ({
          notification: {
            notificationType,
            comparisonOperator: 'GREATER_THAN',
            threshold,
            thresholdType: 'PERCENTAGE',
          },
          subscribers: [{ subscriptionType: 'EMAIL', address: props.email }],
        })),
      ),
    });
  }
}
