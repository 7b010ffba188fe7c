"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Card } from "@/components/ui/card";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { PayPageView } from "@/lib/client/pay-pages/view";
import { keys as queryKeys, payPagesQuery, planListQuery } from "@/lib/client/query/options";

import { CreatePayPageForm } from "./create-pay-page-form";
import { EditPayPageForm } from "./edit-pay-page-form";
import { PayPageTable } from "./pay-page-table";

// /pay-pages: the pages with their counts, QR codes and posters; for those who manage pages, turning each on or off,
// changing one (a panel above the list) and the make form.

type Message = { kind: "ok" | "error"; text: string };

export function PayPagesScreen({ canManage }: { canManage: boolean }) {
  const client = useQueryClient();
  const pages = useQuery(payPagesQuery());
  // The plans a page may join: the first page of the list (newest first), ended ones left out.
  const plans = useQuery({ ...planListQuery(1), enabled: canManage });
  const choices = (plans.data?.items ?? []).filter((p) => p.status !== "ended").map((p) => ({ id: p.id, name: p.name }));
  const [editing, setEditing] = useState<PayPageView | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: queryKeys.payPages });

  const toggle = useMutation({
    mutationFn: (page: PayPageView) =>
      apiFetchWithMessage<PayPageView>(`/api/pay-pages/${encodeURIComponent(page.id)}`, { method: "PATCH", json: { active: !page.active } }),
    onSuccess: ({ data, message: said }) => setMessage({ kind: "ok", text: said || `“${data.title}” is ${data.active ? "on" : "off"}.` }),
    onError: (e) => setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "The page could not be changed. Try again." }),
    onSettled: refresh,
  });

  function saved(page: PayPageView, said: string, verb: string) {
    setEditing(null);
    setMessage({ kind: "ok", text: said || `“${page.title}” ${verb}.` });
    refresh();
  }

  return (
    <div className="space-y-4">
      {editing ? (
        <EditPayPageForm
          key={editing.id}
          page={editing}
          plans={choices}
          onSaved={(page, said) => saved(page, said, "changed")}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <section aria-labelledby="pages-heading" className="space-y-2">
        <h2 id="pages-heading" className="text-lg font-semibold">
          Pages
        </h2>
        {message ? (
          <p role={message.kind === "error" ? "alert" : "status"} className={message.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
            {message.text}
          </p>
        ) : null}
        {pages.data ? (
          <PayPageTable
            pages={pages.data}
            canManage={canManage}
            busy={toggle.isPending}
            onToggle={(page) => {
              setMessage(null);
              toggle.mutate(page);
            }}
            onEdit={(page) => {
              setMessage(null);
              setEditing(page);
            }}
          />
        ) : (
          <p className="text-sm text-slate-600">{pages.isError ? "The pay pages could not be read. Reload the page." : "Loading…"}</p>
        )}
      </section>
      {canManage ? (
        <Card as="section" aria-labelledby="make-page" className="space-y-3 p-4">
          <h2 id="make-page" className="text-lg font-semibold">
            Make a pay page
          </h2>
          <CreatePayPageForm plans={choices} onCreated={(page, said) => saved(page, said, "is made")} />
        </Card>
      ) : null}
    </div>
  );
}
