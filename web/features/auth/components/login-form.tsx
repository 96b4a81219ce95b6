import { EmailInput } from "#web/components/ui/email-input";
import { Button, Flex, Text } from "@radix-ui/themes";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { login } from "../session";
import { PasswordField } from "./password-field";
import { useHydrated } from "#web/lib/use-hydrated";
import { useSso } from "../use-session";
import { ssoErrorMessage } from "../sso-errors";
import { nextPath } from "../next-path";

/** Single sign-on starts with a full navigation: the server redirects to the identity provider. */
export const SSO_START = "/api/auth/oidc/start";

/** Spec §9: the redirect waits about 100 ms so the welcome toast is seen first. */
export const LOGIN_REDIRECT_DELAY_MS = 100;
const LOGIN_FALLBACK = "Something went sideways. Double-check those credentials.";

export function LoginForm() {
  const emailId = useId();
  const passwordId = useId();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const redirect = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const sso = useSso();
  const [params] = useSearchParams();
  const ssoError = ssoErrorMessage(params.get("error"));
  const hydrated = useHydrated();
  const blocked = pending || !hydrated || !email.trim() || !password;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (blocked) return;
    setPending(true);
    try {
      await login(email, password);
      toast({ title: "Welcome back!" });
      redirect.current = setTimeout(() => navigate(nextPath(params.get("next"))), LOGIN_REDIRECT_DELAY_MS);
    } catch (err) {
      toast({ title: "Login Failed", description: errorMessage(err, LOGIN_FALLBACK), variant: "destructive" });
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} aria-label="Sign in">
      <Flex direction="column" gap="4">
        {ssoError && (
          <Text as="p" role="alert" size="2" color="red">
            {ssoError}
          </Text>
        )}
        {sso && (
          <Button asChild size="3" variant="outline">
            <a href={SSO_START}>Continue with {sso.name}</a>
          </Button>
        )}
        <Flex direction="column" gap="2">
          <Text as="label" htmlFor={emailId} size="2" weight="medium">
            Email
          </Text>
          <EmailInput id={emailId} value={email} onChange={setEmail} placeholder="agent@yourcompany.com" />
        </Flex>
        <Flex direction="column" gap="2">
          <Text as="label" htmlFor={passwordId} size="2" weight="medium">
            Password
          </Text>
          <PasswordField
            id={passwordId}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            placeholder="Your secret handshake"
          />
        </Flex>
        <Button type="submit" size="3" disabled={blocked} mt="2">
          {pending ? "Signing in..." : "Sign In"}
        </Button>
        <Text size="2" align="center">
          <Text color="gray">New around here?</Text>{" "}
          <Link to="/signup" className="mk-link">
            Join the Rebellion
          </Link>
        </Text>
      </Flex>
    </form>
  );
}
