import { Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { useState } from "react";
import { Link } from "react-router";
import { ApiError, errorMessage } from "#web/lib/api";
import { useHydrated } from "#web/lib/use-hydrated";
import { type AcceptedInvitation, acceptInvitation } from "../api";
import { ROLE_LABEL } from "../roles";

export interface AcceptInvitationProps {
  token: string;
  /** Who is signed in, or null: then the page offers sign-in and sign-up, which come back here. */
  signedInAs: string | null;
  onAccepted(workspace: AcceptedInvitation["workspace"]): Promise<void> | void;
}

/** Where sign-in and sign-up return after they succeed: this page, to accept. */
export const invitePath = (token: string) => `/invite/${encodeURIComponent(token)}`;

/**
 * The page an invitation link opens. Signed in: one button accepts it. Signed out: sign in or create
 * an account, and come back here to accept. A used, expired or revoked link says which.
 */
export function AcceptInvitation({ token, signedInAs, onAccepted }: AcceptInvitationProps) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [gone, setGone] = useState<string | null>(null);
  const [joined, setJoined] = useState<AcceptedInvitation["workspace"] | null>(null);
  const next = encodeURIComponent(invitePath(token));

  async function accept() {
    setBusy(true);
    setGone(null);
    try {
      const { workspace } = await acceptInvitation(token);
      setJoined(workspace);
      await onAccepted(workspace);
    } catch (err) {
      const fallback =
        err instanceof ApiError && err.status === 410 ? "This invitation can no longer be used." : "Could not accept the invitation.";
      setGone(errorMessage(err, fallback));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card size="4" style={{ maxWidth: 480, width: "100%" }} data-testid="invitation-card">
      <Flex direction="column" gap="4">
        <Heading as="h1" size="7">
          You're invited
        </Heading>
        {joined ? (
          <Text as="p" role="status">
            You joined {joined.name} as {ROLE_LABEL[joined.role].toLowerCase()}. Taking you there...
          </Text>
        ) : signedInAs ? (
          <>
            <Text as="p" color="gray">
              Join the team's workspace as <Text weight="medium">{signedInAs}</Text>: you will see its comparisons, with the role the
              invitation gives you.
            </Text>
            <Button size="3" onClick={() => void accept()} loading={busy} disabled={!hydrated}>
              Accept invitation
            </Button>
          </>
        ) : (
          <>
            <Text as="p" color="gray">
              Sign in or create an account to join the team's workspace. You'll come back here to accept.
            </Text>
            <Flex gap="3" wrap="wrap">
              <Button asChild size="3">
                <Link to={`/login?next=${next}`}>Sign in to accept</Link>
              </Button>
              <Button asChild size="3" variant="soft">
                <Link to={`/signup?next=${next}`}>Create an account</Link>
              </Button>
            </Flex>
          </>
        )}
        {gone && (
          <Callout.Root color="red" role="alert">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>{gone}</Callout.Text>
          </Callout.Root>
        )}
      </Flex>
    </Card>
  );
}
