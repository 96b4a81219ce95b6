import { Button, Card, Flex, Heading, Spinner, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useSession } from "#web/features/auth/use-session";
import { PublicHeader } from "./public-header";

/**
 * Guard for every app route (spec §2 "Protected wrapper"). It reads the session and shows the
 * public header, both from features, so it sits with the routes rather than in web/components.
 */
export function Protected({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === "loading")
    return (
      <Flex asChild align="center" justify="center" gap="3" style={{ minHeight: "100vh" }}>
        <main>
          <Flex align="center" gap="3" role="status">
            <Spinner size="3" />
            <Text size="3">Checking credentials...</Text>
          </Flex>
        </main>
      </Flex>
    );
  if (status === "unauthenticated")
    return (
      <>
        <PublicHeader />
        <Flex asChild align="center" justify="center" className="di-standalone-main">
          <main id="main-content">
            <Card size="4" style={{ maxWidth: 480, width: "100%" }}>
              <Flex direction="column" gap="4" align="center">
                <Heading size="7" align="center">
                  Hold Up There, Digital Wanderer
                </Heading>
                <Text color="gray" align="center">
                  This corner of the lab is for signed-in operatives. Sign in or join up to continue.
                </Text>
                <Flex gap="3" wrap="wrap" justify="center">
                  <Button asChild size="3">
                    <Link to="/login">Sign In to Continue</Link>
                  </Button>
                  <Button asChild size="3" variant="soft">
                    <Link to="/signup">Join the Rebellion</Link>
                  </Button>
                </Flex>
                <Link to="/">Back to the homepage</Link>
              </Flex>
            </Card>
          </main>
        </Flex>
      </>
    );
  return <>{children}</>;
}
