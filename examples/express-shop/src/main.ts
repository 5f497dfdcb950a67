// The example shop as a process:
//   STABLEPAY_API_KEY=sp_live_… STABLEPAY_BASE_URL=http://localhost:8080 STABLEPAY_WEBHOOK_SECRET=whsec_… \
//   PORT=3000 PUBLIC_URL=https://shop.example.com npm start -w @stablepay/example-express-shop
import { Stablepay } from '@stablepay/node';
import { createShop } from './shop.js';

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const port = Number(process.env.PORT ?? 3000);
const { app } = createShop({
  stablepay: new Stablepay({ apiKey: need('STABLEPAY_API_KEY'), baseUrl: need('STABLEPAY_BASE_URL') }),
  webhookSecret: () => need('STABLEPAY_WEBHOOK_SECRET'),
  publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
});
app.listen(port, () => console.warn(`shop on http://localhost:${port}; webhooks at /webhooks/stablepay`));
