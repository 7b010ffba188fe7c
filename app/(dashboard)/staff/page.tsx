import { AddStaffForm } from "@/components/staff/add-staff-form";
import { BusinessName } from "@/components/staff/business-name";
import { ChasingPolicy } from "@/components/staff/chasing-policy";
import { StaffRowActions } from "@/components/staff/staff-row-actions";
import { TeamSettings } from "@/components/staff/team-settings";
import { Badge } from "@/components/ui/badge";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td } from "@/components/ui/table";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { getDb } from "@/lib/db";
import { getSettings } from "@/lib/settings/repo";
import { listStaff, toStaffView } from "@/lib/auth/accounts";

export const metadata = { title: "Staff" };

export default async function StaffPage() {
  const me = await requirePageStaff("staff.manage", "/staff");
  const db = await getDb();
  const [rows, settings] = await Promise.all([listStaff(db).then((list) => list.map(toStaffView)), getSettings(db)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Staff</h1>
      <DataTable label="Staff accounts" caption="Staff accounts" columns={["Name", "E-mail", "Status", "Two-step", "Role and access"]}>
        {rows.map((row) => (
          <tr key={row.id} data-testid="staff-row">
            <Td>{row.name}</Td>
            <Td>
              <OneLine text={row.email} />
            </Td>
            <Td>{row.disabled ? <span className="text-red-700">Disabled</span> : "Active"}</Td>
            <Td>{row.twoStep ? <Badge tone="success">On</Badge> : <Badge tone="neutral">Off</Badge>}</Td>
            <Td>
              <StaffRowActions id={row.id} email={row.email} role={row.role} disabled={row.disabled} twoStep={row.twoStep} self={row.id === me.id} />
            </Td>
          </tr>
        ))}
      </DataTable>
      <AddStaffForm />
      <TeamSettings require2fa={settings.require2fa} selfHasTwoStep={me.twoStepEnabled} />
      <ChasingPolicy initial={{ declineCooldownHours: settings.declineCooldownHours, maxAsksPerTag: settings.maxAsksPerTag }} />
      <BusinessName initial={settings.businessName} />
    </div>
  );
}
