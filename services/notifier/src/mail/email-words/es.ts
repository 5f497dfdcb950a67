import type { EmailWords } from './types.js';

/** Spanish (usted), in the dashboard's and the invoices' words: pago, reembolso, retirada, monedero. */
export const es: EmailWords = {
  lang: 'es',
  labels: {
    amount: 'Importe',
    paidTo: 'Pagado a',
    reference: 'Referencia',
    network: 'Red',
    transaction: 'Transacción',
    from: 'Desde',
    paymentId: 'ID del pago',
    date: 'Fecha',
    customer: 'Cliente',
    sentTo: 'Enviado a',
    refundId: 'ID del reembolso',
    endpoint: 'Endpoint',
    endpointId: 'ID del endpoint',
    lastError: 'Último error',
    disabledAt: 'Desactivado el',
    account: 'Cuenta',
    linkValidUntil: 'Enlace válido hasta',
    label: 'Nombre',
    address: 'Dirección',
    usableFrom: 'Utilizable desde',
    confirmedWith: 'Confirmado con',
    added: 'Añadida',
    removed: 'Eliminada',
  },
  orOpen: (url) => `O abra esta dirección: ${url}`,
  receipt: {
    theMerchant: 'el comercio',
    subject: (amount, m) => `Recibo: ${amount} pagados a ${m}`,
    heading: 'Recibo de pago',
    intro: (amount, m) => `Su pago de ${amount} a ${m} está confirmado.`,
    outro: 'Conserve este correo como recibo. Las preguntas sobre el pedido, diríjalas al comercio.',
  },
  received: {
    subject: (amount) => `Pago recibido: ${amount}`,
    heading: 'Pago recibido',
    intro: (m, amount) => `${m}, se ha confirmado un pago de ${amount} y se ha abonado en su monedero.`,
  },
  refund: {
    theMerchant: 'El comercio',
    subject: (amount) => `Reembolso enviado: ${amount}`,
    heading: 'Se ha enviado su reembolso',
    intro: (m, amount, network) => `${m} le ha reembolsado ${amount} en su monedero en ${network}.`,
  },
  endpointDisabled: {
    subject: (n) => `Endpoint de webhook desactivado tras ${n} fallos seguidos`,
    heading: 'Se ha desactivado un endpoint de webhook',
    intro: (m, n) =>
      `${m}, los últimos ${n} envíos a uno de sus endpoints de webhook fallaron seguidos, así que se ha desactivado y ya no recibe eventos.`,
    outro: [
      'Corrija el endpoint y vuelva a activarlo con PUT /merchant-webhooks/api/:id y {"is_active": true}.',
      'Los eventos perdidos mientras tanto pueden volver a enviarse con POST /merchant-webhooks/api/:id/replay.',
    ],
  },
  confirmation: {
    subject: 'Confirme su dirección de correo electrónico para StablePay',
    heading: 'Confirme su dirección de correo electrónico',
    intro: (m) => [
      `Le damos la bienvenida a StablePay. Confirme que esta dirección pertenece a ${m} siguiendo el enlace de abajo.`,
      'Hasta que esté confirmada, su cuenta no recibe avisos y no puede hacer retiradas.',
    ],
    action: 'Confirmar la dirección de correo',
    outro: [
      'El enlace funciona una sola vez. Si ha caducado, inicie sesión en el panel y solicite uno nuevo.',
      'Si usted no se ha registrado, ignore este correo: ninguna cuenta se usa sin esta confirmación.',
    ],
  },
  registration: {
    subject: 'Alguien ha intentado registrarse con su dirección de correo',
    heading: 'Un registro con su dirección',
    intro: (m) => [
      `Alguien ha intentado crear una cuenta de StablePay con esta dirección de correo, que ya pertenece a ${m}. No se ha creado ninguna cuenta nueva.`,
      'Si fue usted, inicie sesión con su cuenta existente. Si ya no recuerda su contraseña, póngase en contacto con su operador de StablePay para que la restablezca.',
    ],
    action: 'Iniciar sesión',
    outro:
      'Si no fue usted, no tiene que hacer nada: su cuenta no ha cambiado y el intento figura en su registro de auditoría.',
  },
  stepUp: {
    mfa: 'inicio de sesión con contraseña y código de autenticación',
    recent_sign_in: 'un inicio de sesión reciente con contraseña',
  },
  addressAdded: {
    subject: (label) => `Nueva dirección de retirada añadida: ${label}`,
    heading: 'Se ha añadido una dirección de retirada',
    intro: (m, from) =>
      `${m}, se ha añadido una dirección a sus direcciones de retirada. Podrán enviarse retiradas a ella desde el ${from}.`,
    outro:
      'Si no la ha añadido usted, elimínela antes en el panel (Direcciones de retirada), cambie su contraseña y active la verificación en dos pasos.',
  },
  addressRemoved: {
    subject: (label) => `Dirección de retirada eliminada: ${label}`,
    heading: 'Se ha eliminado una dirección de retirada',
    intro: (m) =>
      `${m}, se ha eliminado una dirección de sus direcciones de retirada. Ya no se enviará ninguna retirada a ella.`,
    outro: 'Si no la ha eliminado usted, cambie su contraseña y revise el registro de auditoría en el panel.',
  },
};
