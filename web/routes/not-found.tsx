import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { SiteLink } from "#web/features/marketing/components/site-link";
import { PublicHeader } from "#web/routes/layout/public-header";
import { useSession } from "#web/features/auth/use-session";

export const handle = { title: "404 Page Not Found" };

export function Component() {
  const { user } = useSession();
  return (
    <>
      <PublicHeader />
      <Flex asChild direction="column" align="center" justify="center" gap="4" className="di-standalone-main">
        <main id="main-content">
          <Heading size="8" align="center">
            404 Page Not Found
          </Heading>
          <Text color="gray" align="center">
            This page wandered off. The robots looked everywhere.
          </Text>
          <Flex gap="3" wrap="wrap" justify="center">
            <Button asChild size="3">
              <SiteLink to="/">Back to the homepage</SiteLink>
            </Button>
            {user && (
              <Button asChild size="3" variant="soft">
                <SiteLink to="/dashboard">Go to Mission Control</SiteLink>
              </Button>
            )}
          </Flex>
        </main>
      </Flex>
    </>
  );
}
