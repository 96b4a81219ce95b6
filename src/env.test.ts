import { describe, expect, test } from "bun:test";
import { EnvError, loadEnv } from "./env";

describe("loadEnv", () => {
  test("defaults", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(env.ADMIN_EMAILS).toEqual([]);
    expect(env.CAPTURE_CONCURRENCY).toBe(2);
  });

  test("parses flags and lists", () => {
    const env = loadEnv({ ALLOW_PRIVATE_TARGETS: "1", ADMIN_EMAILS: " A@x.com , b@y.com ,", PORT: "8080" });
    expect(env.ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(env.ADMIN_EMAILS).toEqual(["a@x.com", "b@y.com"]);
    expect(env.PORT).toBe(8080);
  });

  test("SMTP_URL must be smtp or smtps, and a bad one's credentials stay out of the message", () => {
    expect(loadEnv({ SMTP_URL: "smtps://u:p@mail.example.com:465" }).SMTP_URL).toBe("smtps://u:p@mail.example.com:465");
    expect(() => loadEnv({ SMTP_URL: "http://alerts:hunter2@mail.example.com" })).toThrow("SMTP_URL: must be an smtp:// or smtps:// URL");
    try {
      loadEnv({ SMTP_URL: "http://alerts:hunter2@mail.example.com" });
    } catch (e) {
      expect((e as Error).message).not.toContain("hunter2");
    }
  });

  test("DATABASE_URL: SQLite by default; a postgres:// URL needs JWT_SECRET; a bad one is named, its password never shown", () => {
    expect(loadEnv({}).DATABASE_URL).toBeUndefined();
    expect(loadEnv({ DATABASE_URL: "sqlite:" }).DATABASE_URL).toBe("sqlite:");
    const pg = "postgres://di:hunter2-secret@db.internal:5432/design";
    expect(() => loadEnv({ DATABASE_URL: pg })).toThrow("JWT_SECRET: is required when DATABASE_URL is a postgres:// URL");
    expect(loadEnv({ DATABASE_URL: pg, JWT_SECRET: "x".repeat(32) }).DATABASE_URL).toBe(pg);
    let message = "";
    try {
      loadEnv({ DATABASE_URL: "mysql://root:hunter2-secret@db/x" });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('DATABASE_URL: "mysql:" is not a database this build speaks (use sqlite: or postgres://)');
    expect(message).not.toContain("hunter2");
  });

  test("LOG_LEVEL: info by default, one of pino's levels, anything else refused", () => {
    expect(loadEnv({}).LOG_LEVEL).toBe("info");
    expect(loadEnv({ LOG_LEVEL: "debug" }).LOG_LEVEL).toBe("debug");
    expect(loadEnv({ LOG_LEVEL: "silent" }).LOG_LEVEL).toBe("silent");
    expect(() => loadEnv({ LOG_LEVEL: "verbose" })).toThrow(
      'LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent" (got "verbose")',
    );
  });

  test("one line per bad variable", () => {
    try {
      loadEnv({ PORT: "eighty", CAPTURE_CONCURRENCY: "0", JWT_SECRET: "short", ALLOW_PRIVATE_TARGETS: "maybe" });
      throw new Error("should have thrown");
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      const msg = (e as Error).message;
      for (const name of ["PORT", "CAPTURE_CONCURRENCY", "JWT_SECRET", "ALLOW_PRIVATE_TARGETS"]) expect(msg).toContain(`  ${name}:`);
      expect(msg.split("\n").length).toBe(5);
      // Secrets are described, never echoed.
      expect(msg).not.toContain("short");
      expect(msg).toContain("JWT_SECRET: must be at least 32 characters (got a value of 5 characters, not shown)");
    }
  });

  test("single sign-on: off without OIDC_ISSUER; with it, the client's id and secret are required and the secret never shown", () => {
    const off = loadEnv({});
    expect(off.OIDC_ISSUER).toBeUndefined();
    expect(off.OIDC_NAME).toBe("Single sign-on");
    expect(off.PASSWORD_LOGIN).toBe("all");
    expect(() => loadEnv({ OIDC_ISSUER: "https://id.example.com" })).toThrow(
      "OIDC_CLIENT_ID: is required when OIDC_ISSUER is set (got null)\n  OIDC_CLIENT_SECRET: is required when OIDC_ISSUER is set (got null)",
    );
    expect(() => loadEnv({ OIDC_ISSUER: "http://id.example.com", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" })).toThrow(
      "OIDC_ISSUER: must be https:// (http:// only on a loopback host)",
    );
    expect(() => loadEnv({ PASSWORD_LOGIN: "admins" })).toThrow("PASSWORD_LOGIN: admins needs OIDC_ISSUER");
    const on = loadEnv({
      OIDC_ISSUER: "http://127.0.0.1:8080/realms/x",
      OIDC_CLIENT_ID: "design-intel",
      OIDC_CLIENT_SECRET: "s3cret",
      OIDC_ALLOWED_DOMAINS: " Example.com, @corp.example ,",
      OIDC_NAME: "Okta",
      PASSWORD_LOGIN: "admins",
    });
    expect(on.OIDC_ALLOWED_DOMAINS).toEqual(["example.com", "corp.example"]);
    expect(on.PASSWORD_LOGIN).toBe("admins");
  });
});
