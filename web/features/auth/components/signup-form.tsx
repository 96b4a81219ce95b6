import { EmailInput } from "#web/components/ui/email-input";
import { PersonIcon } from "@radix-ui/react-icons";
import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useId, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { nextPath } from "../next-path";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { signup } from "../session";
import { PasswordField } from "./password-field";
import { useHydrated } from "#web/lib/use-hydrated";

export const MIN_PASSWORD_LENGTH = 8;
const SIGNUP_FALLBACK = "Something went wrong. Maybe try a different email?";

export function SignupForm() {
  const emailId = useId();
  const usernameId = useId();
  const passwordId = useId();
  const hintId = useId();
  const navigate = useNavigate();
  // A fresh install's first account needs the setup token from the boot log's sign-up link.
  const [params] = useSearchParams();
  const setupToken = params.get("setup") ?? undefined;
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    if (!email.trim()) {
      emailRef.current?.focus();
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      toast({
        title: "Password Too Weak",
        description: "Come on, you can do better than that. At least 8 characters, please.",
        variant: "destructive",
      });
      return;
    }
    setPending(true);
    try {
      await signup(email, password, username, setupToken);
      toast({ title: "Welcome to the Rebellion!" });
      navigate(nextPath(params.get("next")));
    } catch (err) {
      toast({ title: "Signup Failed", description: errorMessage(err, SIGNUP_FALLBACK), variant: "destructive" });
      setPending(false);
    }
  }

  // noValidate: the browser's own minLength bubble would otherwise pre-empt the spec's toast.
  return (
    <form method="post" onSubmit={onSubmit} aria-label="Create account" noValidate>
      <Flex direction="column" gap="4">
        <Flex direction="column" gap="2">
          <Text as="label" htmlFor={emailId} size="2" weight="medium">
            Email
          </Text>
          <EmailInput id={emailId} value={email} onChange={setEmail} placeholder="rebel@yourcompany.com" inputRef={emailRef} />
        </Flex>
        <Flex direction="column" gap="2">
          <Text as="label" htmlFor={usernameId} size="2" weight="medium">
            Username{" "}
            <Text color="gray" weight="regular">
              (optional)
            </Text>
          </Text>
          <TextField.Root
            id={usernameId}
            name="username"
            size="3"
            autoComplete="username"
            maxLength={50}
            placeholder="What should we call you?"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          >
            <TextField.Slot>
              <PersonIcon aria-hidden />
            </TextField.Slot>
          </TextField.Root>
        </Flex>
        <Flex direction="column" gap="2">
          <Text as="label" htmlFor={passwordId} size="2" weight="medium">
            Password
          </Text>
          <PasswordField
            id={passwordId}
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            placeholder="Pure, unguessable chaos"
            describedBy={hintId}
          />
          <Text id={hintId} size="1" color="gray">
            At least {MIN_PASSWORD_LENGTH} characters.
          </Text>
        </Flex>
        <Button type="submit" size="3" disabled={pending || !hydrated} mt="2">
          {pending ? "Creating chaos..." : "Join the Rebellion"}
        </Button>
        <Text size="2" align="center">
          <Text color="gray">Already one of us?</Text>{" "}
          <Link to="/login" className="mk-link">
            Sign in
          </Link>
        </Text>
      </Flex>
    </form>
  );
}
