import { CampaignFileFormat } from "@/components/campaigns/file-format";
import { NewCampaignForm } from "@/components/campaigns/new-campaign-form";
import { TextLink } from "@/components/ui/text-link";
import { requirePageStaff } from "@/lib/auth/page-guard";

export const metadata = { title: "New campaign" };

export default async function NewCampaignPage() {
  await requirePageStaff("campaigns.write", "/campaigns/new");
  return (
    <div className="space-y-4">
      <TextLink href="/campaigns" className="text-sm">
        All campaigns
      </TextLink>
      <h1 className="text-2xl font-semibold">New campaign</h1>
      <p className="text-sm text-slate-700">
        Upload a file with one row per person to ask. You get a preview (invalid rows and warnings) before anything is sent; the requests then go out at the
        service budget&apos;s pace, and the campaign&apos;s page follows them live.
      </p>
      <div className="grid items-start gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <NewCampaignForm />
        <CampaignFileFormat />
      </div>
    </div>
  );
}
