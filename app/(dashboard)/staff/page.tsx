import { AddStaffForm } from "@/components/staff/add-staff-form";
import { StaffRowActions } from "@/components/staff/staff-row-actions";
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
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Staff accounts">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Staff accounts</caption>
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">Name</th>
              <th scope="col" className="px-3 py-2 font-medium">E-mail</th>
              <th scope="col" className="px-3 py-2 font-medium">Status</th>
              <th scope="col" className="px-3 py-2 font-medium">Role and access</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.id} data-testid="staff-row">
                <td className="px-3 py-2">{row.name}</td>
                <td className="px-3 py-2 break-all">{row.email}</td>
                <td className="px-3 py-2">{row.disabled ? <span className="text-red-700">Disabled</span> : "Active"}</td>
                <td className="px-3 py-2">
                  <StaffRowActions id={row.id} email={row.email} role={row.role} disabled={row.disabled} self={row.id === me.id} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AddStaffForm />
    </div>
  );
}
