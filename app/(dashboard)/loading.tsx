import { WalletCardsSkeleton } from "@/components/balance/wallet-cards";

export default function Loading() {
  return <WalletCardsSkeleton />;
}
