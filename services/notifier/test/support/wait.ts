export { waitFor } from '@stablepay/platform/testing';
