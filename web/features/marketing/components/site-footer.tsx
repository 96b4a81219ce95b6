import { Container, Flex, Grid, Separator, Text } from "@radix-ui/themes";
import { SiteLink } from "./site-link";
import { Logo } from "./logo";

const COLUMNS = [
  {
    title: "Product",
    links: [
      { to: "/features", label: "Features" },
      { to: "/pricing", label: "Pricing" },
      { to: "/dashboard", label: "Dashboard" },
    ],
  },
  {
    title: "Get in",
    links: [
      { to: "/signup", label: "Join the Rebellion" },
      { to: "/login", label: "Sign In" },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="mk-footer">
      <Container size="4" px={{ initial: "4", md: "6" }} py="8">
        <Grid columns={{ initial: "1", sm: "3" }} gap="6">
          <Flex direction="column" gap="3">
            <Logo />
            <Text size="2" color="gray" className="mk-footer-blurb">
              Competitive design intelligence for teams who would rather ship than guess.
            </Text>
          </Flex>
          {COLUMNS.map((col) => (
            <nav key={col.title} aria-label={col.title}>
              <Flex direction="column" gap="2">
                <Text size="2" weight="bold">
                  {col.title}
                </Text>
                {col.links.map((l) => (
                  <SiteLink key={l.to} to={l.to} className="mk-footer-link">
                    {l.label}
                  </SiteLink>
                ))}
              </Flex>
            </nav>
          ))}
        </Grid>
        <Separator size="4" my="6" />
        <Flex justify="between" gap="3" wrap="wrap">
          <Text size="1" color="gray">
            © Design Intel. Built by robots, supervised by humans.
          </Text>
          <Text size="1" color="gray">
            Currently in beta — expect sparks.
          </Text>
        </Flex>
      </Container>
    </footer>
  );
}
