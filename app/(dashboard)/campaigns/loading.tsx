import { CampaignsSkeleton } from "@/components/campaigns/skeleton";

export default function Loading() {
  return <CampaignsSkeleton label="Loading campaigns" />;
}
