import { AddStaffForm } from "@/components/staff/add-staff-form";
import { StaffRowActions } from "@/components/staff/staff-row-actions";
import { DataTable, Td } from "@/components/ui/table";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ADMINS } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { listStaff } from "@/lib/staff/repo";

export const metadata = { title: "Staff" };

export default async function StaffPage() {
  const me = await requirePageStaff(ADMINS, "/staff");
  const rows = await listStaff(await getDb());
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Staff</h1>
      <DataTable label="Staff accounts" caption="Staff accounts" columns={["Name", "E-mail", "Status", "Role and access"]}>
        {rows.map((row) => (
          <tr key={row.id} data-testid="staff-row">
            <Td>{row.name}</Td>
            <Td className="break-all">{row.email}</Td>
            <Td>{row.disabled ? <span className="text-red-700">Disabled</span> : "Active"}</Td>
            <Td>
              <StaffRowActions id={row.id} email={row.email} role={row.role} disabled={row.disabled} self={row.id === me.id} />
            </Td>
          </tr>
        ))}
      </DataTable>
      <AddStaffForm />
    </div>
  );
}
