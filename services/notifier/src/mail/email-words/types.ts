/**
 * The words of every e-mail but the invoice's (invoice-email-words.ts), one set per language. The
 * figures they are given are already in the reader's format (formatDecimal, formatTimestamp).
 */
export interface EmailWords {
  /** The `lang` of the HTML part. */
  lang: string;
  /** Row labels of the details table. */
  labels: {
    amount: string;
    paidTo: string;
    reference: string;
    network: string;
    transaction: string;
    from: string;
    paymentId: string;
    date: string;
    customer: string;
    sentTo: string;
    refundId: string;
    endpoint: string;
    endpointId: string;
    lastError: string;
    disabledAt: string;
    account: string;
    linkValidUntil: string;
    label: string;
    address: string;
    usableFrom: string;
    confirmedWith: string;
    added: string;
    removed: string;
  };
  /** Beside a button, for mail programs that show no buttons: "Or open this address: …". */
  orOpen: (url: string) => string;
  receipt: {
    /** who was paid when the merchant's name is not known */
    theMerchant: string;
    subject: (amount: string, merchant: string) => string;
    heading: string;
    intro: (amount: string, merchant: string) => string;
    outro: string;
  };
  received: {
    subject: (amount: string) => string;
    heading: string;
    intro: (merchant: string, amount: string) => string;
  };
  refund: {
    /** who refunded when the merchant's name is not known, at the start of a sentence */
    theMerchant: string;
    subject: (amount: string) => string;
    heading: string;
    intro: (merchant: string, amount: string, network: string) => string;
  };
  endpointDisabled: {
    subject: (failures: number) => string;
    heading: string;
    intro: (merchant: string, failures: number) => string;
    outro: [string, string];
  };
  confirmation: {
    subject: string;
    heading: string;
    intro: (merchant: string) => [string, string];
    action: string;
    outro: [string, string];
  };
  registration: {
    subject: string;
    heading: string;
    intro: (merchant: string) => [string, string];
    action: string;
    outro: string;
  };
  /** How a withdrawal address change was confirmed. */
  stepUp: { mfa: string; recent_sign_in: string };
  addressAdded: {
    subject: (label: string) => string;
    heading: string;
    intro: (merchant: string, usableFrom: string) => string;
    outro: string;
  };
  addressRemoved: {
    subject: (label: string) => string;
    heading: string;
    intro: (merchant: string) => string;
    outro: string;
  };
}
