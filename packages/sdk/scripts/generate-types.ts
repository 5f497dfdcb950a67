// Writes src/generated/operations.ts: the request and response types of every API-key route the SDK
// calls, expanded from the zod schemas of @stablepay/contracts into plain TypeScript, so that the
// published package carries the contracts' types without depending on them (or on zod) at run time.
// The file is not kept in git: the package's build writes it first. Union members are sorted, so the
// same contracts give the same file (and the same package) whatever order the checker met the types in.
//   node --import tsx packages/sdk/scripts/generate-types.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import ts from 'typescript';

/**
 * The public name of one part of an operation: its query, its body, its answer (the `data` of the
 * success envelope), or one item of the list it answers (`[field, name]` when the list is a field of
 * the answer, a name alone when the answer is the list).
 */
interface PartNames {
  query?: string;
  body?: string;
  response?: string;
  item?: string | readonly [field: string, name: string];
}

/**
 * The catalogue's operations the SDK wraps, only API-key routes (the catalogue checks they are), with
 * the names the package exports for their parts.
 */
export const SDK_OPERATIONS = {
  listPaymentsApi: { query: 'PaymentListParams', item: ['payments', 'PaymentListItem'] },
  getPaymentApi: { response: 'Payment' },
  createCheckoutSession: { body: 'CheckoutSessionCreateParams', response: 'CreatedCheckoutSession' },
  listCheckoutSessions: { query: 'CheckoutSessionListParams', item: ['sessions', 'CheckoutSessionListItem'] },
  getCheckoutSession: { response: 'CheckoutSession' },
  createRefund: { body: 'RefundCreateParams', response: 'CreatedRefund' },
  listRefunds: { query: 'RefundListParams', item: ['refunds', 'RefundListItem'] },
  getRefund: { response: 'Refund' },
  cancelRefund: {},
  listWebhooks: {},
  createWebhook: { body: 'WebhookEndpointCreateParams', response: 'CreatedWebhookEndpoint' },
  getWebhook: { response: 'WebhookEndpoint' },
  updateWebhook: { body: 'WebhookEndpointUpdateParams' },
  deleteWebhook: {},
  regenerateWebhookSecret: { response: 'WebhookSecret' },
  testWebhook: { response: 'WebhookTestResult' },
  getWebhookLogs: { query: 'WebhookLogsParams', item: ['logs', 'WebhookDelivery'] },
  listWebhookEvents: { item: 'WebhookEventType' },
  listMerchantEvents: { query: 'MerchantEventListParams', item: ['events', 'MerchantEvent'] },
  getWalletBalance: { response: 'Balance' },
  listInvoicesApi: { query: 'InvoiceListParams', item: 'Invoice' },
  createWithdrawalApi: { body: 'WithdrawalCreateParams' },
  listWithdrawalsApi: { query: 'WithdrawalListParams' },
  getWithdrawalApi: { response: 'Withdrawal' },
  listBalanceTransactionsApi: { item: ['balance_transactions', 'BalanceTransaction'] },
  getInvoicePdfApi: { query: 'InvoicePdfParams' },
} as const satisfies Record<string, PartNames>;

const operationIds = Object.keys(SDK_OPERATIONS) as Array<keyof typeof SDK_OPERATIONS>;

/** The webhook bodies `constructEvent` returns, by the contracts' envelope schemas. */
const WEBHOOK_EVENTS = {
  PaymentWebhookEvent: 'PaymentWebhookEnvelope',
  RefundWebhookEvent: 'RefundWebhookEnvelope',
};

const here = dirname(fileURLToPath(import.meta.url));
const sdk = join(here, '..');
const target = join(sdk, 'src/generated/operations.ts');
const probe = join(sdk, 'src/generated/.probe.ts');

/**
 * The probe names one type per operation part; the checker expands each into a literal type. The
 * query is what the caller may send (every field optional, numbers as numbers), the body what the
 * schema accepts, the response the `data` of the success envelope.
 */
const probeSource = `
import type { z } from 'zod';
import type { RouteOf } from '@stablepay/contracts/catalogue/routes';
import type * as contracts from '@stablepay/contracts';
type Expand<T> = T extends readonly (infer U)[] ? Expand<U>[] : T extends object ? { [K in keyof T]: Expand<T[K]> } : T;
type Req<Op extends Parameters<typeof String>[0] & string, P extends string> =
  RouteOf<Op & import('@stablepay/contracts/catalogue/routes').OperationId> extends { request: { [K in P]: infer S extends z.ZodType } } ? S : never;
type Res<Op extends string> =
  RouteOf<Op & import('@stablepay/contracts/catalogue/routes').OperationId>['responses'] extends infer R
    ? R[keyof R] extends infer One ? One extends { schema: infer S extends z.ZodType } ? z.output<S> extends { data: infer D } ? D : null : null : never : never;
${operationIds
  .map(
    (op) => `export type ${op}_query = Expand<Partial<z.output<Req<'${op}', 'query'>>>>;
export type ${op}_body = Expand<z.input<Req<'${op}', 'body'>>>;
export type ${op}_response = Expand<Res<'${op}'>>;`,
  )
  .join('\n')}
${Object.entries(WEBHOOK_EVENTS)
  .map(([name, schema]) => `export type ${name}_event = Expand<z.output<typeof contracts.${schema}>>;`)
  .join('\n')}
`;

/** `null` and `undefined` close a union, as a reader expects (`string | null`); the rest in text order. */
const unionRank = (text: string) => (text === 'null' ? 1 : text === 'undefined' ? 2 : 0);

/**
 * The text of an alias's type, expanded. The checker lists a union's members in the order it created
 * their types, which follows whatever it read first: sorting them makes the text depend on the types
 * alone.
 */
const typeText = (checker: ts.TypeChecker, node: ts.TypeAliasDeclaration): string => {
  const type = checker.getTypeAtLocation(node.name);
  const built = checker.typeToTypeNode(
    type,
    undefined,
    ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.IgnoreErrors,
  )!;
  const printer = ts.createPrinter({ removeComments: true });
  const print = (n: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, n, node.getSourceFile());
  const sortUnions = (context: ts.TransformationContext) => {
    const visit = (n: ts.Node): ts.Node => {
      const inner = ts.visitEachChild(n, visit, context);
      if (!ts.isUnionTypeNode(inner)) return inner;
      const members = inner.types
        .map((member) => ({ member, text: print(member) }))
        .sort(
          (a, b) => unionRank(a.text) - unionRank(b.text) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
        );
      return ts.factory.updateUnionTypeNode(inner, ts.factory.createNodeArray(members.map((m) => m.member)));
    };
    return (root: ts.TypeNode) => ts.visitNode(root, visit) as ts.TypeNode;
  };
  const [sorted] = ts.transform(built, [sortUnions]).transformed;
  return print(sorted!);
};

/** The exported aliases of the parts `SDK_OPERATIONS` names. */
const namedParts = (): string[] =>
  operationIds.flatMap((op) => {
    const names: PartNames = SDK_OPERATIONS[op];
    const of = (part: string) => `Operations['${op}']['${part}']`;
    const aliases = (['query', 'body', 'response'] as const)
      .filter((part) => names[part])
      .map((part) => `export type ${names[part]} = ${of(part)};`);
    if (typeof names.item === 'string')
      aliases.push(`export type ${names.item} = ${of('response')}[number];`);
    if (Array.isArray(names.item)) {
      const [field, name] = names.item;
      aliases.push(`export type ${name} = ${of('response')}['${field}'][number];`);
    }
    return aliases;
  });

const generate = (): string => {
  mkdirSync(dirname(probe), { recursive: true });
  writeFileSync(probe, probeSource);
  try {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(sdk, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    const program = ts.createProgram([probe], { ...config.options, noEmit: true, composite: false });
    const checker = program.getTypeChecker();
    const file = program.getSourceFile(probe)!;
    const aliases = new Map<string, string>();
    file.forEachChild((n) => {
      if (ts.isTypeAliasDeclaration(n) && /_(query|body|response|event)$/.test(n.name.text)) {
        aliases.set(n.name.text, typeText(checker, n));
      }
    });
    const entries = operationIds.map((op) => {
      const part = (p: string) => {
        const text = aliases.get(`${op}_${p}`)!;
        return text === 'never' || text === '{}' ? 'never' : text;
      };
      return `  ${op}: {\n    query: ${part('query')};\n    body: ${part('body')};\n    response: ${aliases.get(`${op}_response`)};\n  };`;
    });
    const events = Object.keys(WEBHOOK_EVENTS).map(
      (name) => `export type ${name} = ${aliases.get(`${name}_event`)};`,
    );
    return `// Generated by scripts/generate-types.ts from the zod schemas of @stablepay/contracts. Do not edit.
export interface Operations {
${entries.join('\n')}
}

${namedParts().join('\n')}

${events.join('\n\n')}
`;
  } finally {
    writeFileSync(probe, '');
    ts.sys.deleteFile?.(probe);
  }
};

const raw = generate();
if (/\bany\b/.test(raw)) throw new Error('operations.ts: some types did not resolve (any); check the probe');
const text = await prettier.format(raw, {
  ...(await prettier.resolveConfig(target)),
  filepath: target,
});
writeFileSync(target, text);
