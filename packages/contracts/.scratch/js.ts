import { z } from 'zod';
import * as c from '../src/index.js';
const reg = z.registry<{ id: string }>();
reg.add(c.Currency, { id: 'Currency' });
reg.add(c.CreatePublicPaymentBody, { id: 'CreatePublicPaymentBody' });
reg.add(c.CreatePublicPaymentResponse, { id: 'CreatePublicPaymentResponse' });
reg.add(c.CreatedPayment, { id: 'CreatedPayment' });
reg.add(c.ApiPaymentListQuery, { id: 'ApiPaymentListQuery' });
for (const io of ['input', 'output'] as const) {
  const r = z.toJSONSchema(reg, { io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  console.log(io, JSON.stringify(r, null, 1).slice(0, 4000));
}
