import { describe, expect, it } from "vitest";

import { deviceName } from "./device-name";

describe("deviceName", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36", "Chrome on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0", "Opera on Windows"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on macOS"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Safari on macOS"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari on iPhone",
    ],
    ["Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1", "Chrome on iPad"],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
      "Samsung Internet on Android",
    ],
    ["Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Chrome on Android"],
    ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome on ChromeOS"],
    ["Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", "Firefox on Android"],
  ])("names a browser and its system: %s", (ua, expected) => {
    expect(deviceName(ua)).toBe(expected);
  });

  it("names a program that is not a browser by its product", () => {
    expect(deviceName("curl/8.5.0")).toBe("curl");
    expect(deviceName("Playwright/1.49.0 (x64; debian 12) node/20.18")).toBe("Playwright");
    expect(deviceName("node")).toBe("node");
  });

  it("says so when there is nothing to go on", () => {
    expect(deviceName("")).toBe("Unknown device");
    expect(deviceName("   ")).toBe("Unknown device");
    expect(deviceName(null)).toBe("Unknown device");
    expect(deviceName(undefined)).toBe("Unknown device");
    expect(deviceName("Mozilla/5.0")).toBe("Unknown device");
    expect(deviceName("!!!")).toBe("Unknown device");
  });

  it("keeps an odd Mozilla-style agent to its system", () => {
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) SomethingNew/1.0")).toBe("Browser on Windows");
  });

  it("keeps a long product name short", () => {
    expect(deviceName(`${"a".repeat(80)}/1.0`)).toHaveLength(30);
  });
});
