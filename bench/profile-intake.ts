// Profiling aid for benchmark 1 (not part of `npm run bench`): sends deliveries to an already running
// dashboard or bare server. Usage: tsx bench/profile-intake.ts URL KEY COUNT CONCURRENCY
import { prepareDeliveries, sendAll } from "./deliveries";

const [url = "", key = "", count = "1000", concurrency = "50"] = process.argv.slice(2);
const deliveries = prepareDeliveries(Number(count), 0.1, key);
const { outcomes, elapsedMs } = await sendAll(url, deliveries, Number(concurrency));
const ok = outcomes.filter((o) => o.status >= 200 && o.status < 300).length;
console.log(`${outcomes.length} deliveries, ${ok} 2xx, ${((outcomes.length / elapsedMs) * 1000).toFixed(1)}/s`);
