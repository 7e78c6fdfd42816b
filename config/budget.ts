/** What tells the stack's spend from the rest of the account's, and the budget that watches it. */

/**
 * The cost allocation tag the stack puts on everything it creates that takes tags: once activated in
 * Billing → Cost allocation tags, the bill (and the budget of `-c monthlyBudgetUsd`) can tell the
 * stack's spend from the rest of the account's.
 */
export const COST_ALLOCATION_TAG = { key: 'app', value: 'serverless-poll' } as const;

/**
 * `-c monthlyBudgetUsd=<n> -c budgetEmail=<address>`: an AWS Budgets cost budget on the tag above, which
 * e-mails at these percentages of the month's amount, of actual and of forecast spend.
 */
export const BUDGET_ALERT_PERCENTAGES = [80, 100] as const;
/** The two flags, by what they set. */
export const BUDGET_FLAGS = { amount: 'monthlyBudgetUsd', email: 'budgetEmail' } as const;
