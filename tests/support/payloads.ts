import { randomUUID } from "node:crypto";

/** A peer-transfer.success body as the service sends it (2.4), with a bvn to prove it is never kept. */
export function payload(overrides: Record<string, unknown> = {}) {
  return {
    type: "peer-transfer.success",
    uuid: randomUUID(),
    amount: 1500,
    actual_amount: 1500,
    settled_amount: 1485,
    description: "Invoice 77",
    fees: 15,
    paypoint: false,
    customer: {
      uuid: randomUUID(),
      avatar: "http://127.0.0.1:4010/avatars/ada.obi.svg",
      name: "Ada Obi",
      email: "ada.obi@example.com",
      phone: "+2348031234567",
      bvn: "22123456789",
      tag: "ada.obi",
      frequency: 3,
    },
    meta: { peer_tag: "ada.obi", name: "Ada Obi" },
    ...overrides,
  };
}

export const BVN = "22123456789";
