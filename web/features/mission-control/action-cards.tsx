import { ArrowRightIcon, BarChartIcon, CodeIcon, GearIcon, LightningBoltIcon, MixIcon, TargetIcon } from "@radix-ui/react-icons";
import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "react-router";

interface ActionCardProps {
  to: string;
  title: string;
  description: string;
  icon: ReactNode;
  badge?: { label: string; color: "violet" | "green" | "gray" | "amber" };
  /** Not reachable for this user; shown, marked, and not a link. */
  unavailable?: string;
  size?: "2" | "3";
}

function ActionCard({ to, title, description, icon, badge, unavailable, size = "2" }: ActionCardProps) {
  const body = (
    <Flex gap="3" align="start">
      <span className="mc-action-icon" aria-hidden>
        {icon}
      </span>
      <Flex direction="column" gap="1" style={{ flex: 1, minWidth: 0 }}>
        <Flex align="center" gap="2" wrap="wrap">
          <Heading as="h3" size="3">
            {title}
          </Heading>
          {badge && (
            <Badge color={badge.color} variant="soft" highContrast>
              {badge.label}
            </Badge>
          )}
          {unavailable && (
            <Badge color="gray" variant="outline">
              {unavailable}
            </Badge>
          )}
        </Flex>
        <Text size="2" color="gray">
          {description}
        </Text>
      </Flex>
      {!unavailable && <ArrowRightIcon aria-hidden className="mc-action-arrow" />}
    </Flex>
  );
  if (unavailable)
    return (
      <Card size={size} className="mc-action mc-action-unavailable" aria-disabled="true">
        {body}
      </Card>
    );
  return (
    <Card size={size} asChild className="mc-action">
      <Link to={to}>{body}</Link>
    </Card>
  );
}

/** Spec §2: quick actions (Compare Websites, Discover Trends) and the secondary cards. */
export function QuickActions() {
  return (
    <div className="mc-grid mc-grid-quick">
      <ActionCard
        size="3"
        to="/comparison"
        title="Compare Websites"
        description="Put competitor sites side by side: design, UX, copy and timing, with fixes."
        icon={<MixIcon width={20} height={20} />}
        badge={{ label: "Popular", color: "violet" }}
      />
      <ActionCard
        size="3"
        to="/trends"
        title="Discover Trends"
        description="What most captured sites have in common, with the evidence."
        icon={<LightningBoltIcon width={20} height={20} />}
        badge={{ label: "New", color: "green" }}
      />
    </div>
  );
}

export function SecondaryActions({ isAdmin }: { isAdmin: boolean }) {
  return (
    <div className="mc-grid mc-grid-secondary">
      <ActionCard
        to="/analytics"
        title="View Analytics"
        description="Tests, conversions and prediction accuracy over time."
        icon={<BarChartIcon />}
      />
      <ActionCard to="/tests" title="A/B Testing" description="TestCommander's experiments and their statistics." icon={<TargetIcon />} />
      <ActionCard
        to="/super-admin"
        title="System Config"
        description="Health, maintenance and agent controls."
        icon={<GearIcon />}
        unavailable={isAdmin ? undefined : "Admins only"}
      />
      <ActionCard
        to="/generate"
        title="Generate Components"
        description="DesignNinja's components: preview, copy, download."
        icon={<CodeIcon />}
      />
    </div>
  );
}
