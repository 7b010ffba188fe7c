import type { V1Operation } from "./operation";
import { cancelCampaign, createCampaign, getCampaign, listCampaignRows, listCampaigns, pauseCampaign, resumeCampaign, startCampaign } from "./ops/campaigns";
import { getPlanBoard, listPlans } from "./ops/plans";
import { getBalance, getPayer, getPayment, listEvents, listPayers, listPayments, patchPayer } from "./ops/reads";
import { getDailyReport } from "./ops/reports";
import { createRequest, getRequest, listRequests } from "./ops/requests";
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from "./ops/webhooks";

// Every /api/v1 operation, in the document's order. A route under app/api/v1 that is not here, or an operation here
// with no route, fails tests/api/contract.test.ts.

export const V1_OPERATIONS: readonly V1Operation[] = [
  createRequest,
  listRequests,
  getRequest,
  getBalance,
  listPayments,
  getPayment,
  listPayers,
  getPayer,
  patchPayer,
  listEvents,
  createCampaign,
  listCampaigns,
  getCampaign,
  listCampaignRows,
  startCampaign,
  pauseCampaign,
  resumeCampaign,
  cancelCampaign,
  listPlans,
  getPlanBoard,
  getDailyReport,
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
];
