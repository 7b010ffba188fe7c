import { z } from "zod";

import type { BalanceView } from "@/lib/balance/view";

import { assertSame, isoTime, type Same } from "../wire";

// The wallets as the service formats them, and their exact total.

export const balanceAnswer = z
  .object({
    currency: z.string(),
    totalFormatted: z.string().meta({ example: "₦1,250,000.00" }),
    wallets: z.array(
      z.object({
        name: z.string(),
        main: z.boolean(),
        balanceMinor: z.number().meta({ description: "The balance as the service sent it, in its unit" }),
        formatted: z.string().meta({ description: "Exactly as the service formats it" }),
      }),
    ),
    fetchedAt: isoTime,
  })
  .meta({ id: "Balance" });

assertSame<Same<z.output<typeof balanceAnswer>, BalanceView>>(true);
