import { Card, Flex, Heading, RadioCards, Text } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { errorMessage } from "#web/lib/api";
import { type DigestFrequency, type DigestView, getDigest, putDigest } from "../api";
import { formatWhen } from "../format";
import { browserTimeZone } from "../time-zones";

const OPTIONS: { value: DigestFrequency; label: string; hint: string }[] = [
  { value: "off", label: "Off", hint: "Only the alerts you set" },
  { value: "daily", label: "Daily", hint: "Every morning at 08:00" },
  { value: "weekly", label: "Weekly", hint: "Mondays at 08:00" },
];

/** Settings: one e-mail summing up every watched comparison, daily or weekly, in this browser's zone. */
export function DigestCard() {
  const [digest, setDigest] = useState<DigestView | null>(null);
  const [saving, setSaving] = useState<DigestFrequency | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getDigest()
      .then(setDigest)
      .catch((e) => setError(errorMessage(e, "Could not load your digest setting.")));
  }, []);

  async function choose(frequency: DigestFrequency) {
    setSaving(frequency);
    setError(null);
    try {
      setDigest(await putDigest(frequency, digest?.timezone && digest.frequency !== "off" ? digest.timezone : browserTimeZone()));
    } catch (err) {
      setError(errorMessage(err, "Could not save your digest setting. Try again."));
    } finally {
      setSaving(null);
    }
  }

  const zone = digest?.timezone ?? undefined;
  return (
    <Card size="3">
      <Heading as="h2" size="4" mb="1" id="digest-heading">
        Watch digest
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        One e-mail summing up what changed across every comparison you watch.
      </Text>
      <RadioCards.Root
        value={saving ?? digest?.frequency ?? ""}
        onValueChange={(v) => void choose(v as DigestFrequency)}
        columns={{ initial: "1", sm: "3" }}
        aria-labelledby="digest-heading"
        disabled={!digest || saving !== null}
      >
        {OPTIONS.map((o) => (
          <RadioCards.Item key={o.value} value={o.value}>
            <Flex direction="column" width="100%">
              <Text weight="bold">{o.label}</Text>
              <Text size="1" color="gray">
                {o.hint}
              </Text>
            </Flex>
          </RadioCards.Item>
        ))}
      </RadioCards.Root>
      <Flex direction="column" gap="1" mt="3" data-testid="digest-status">
        {digest && digest.frequency !== "off" && (
          <Text size="2">
            Next digest: <strong>{formatWhen(digest.nextSendAt, zone)}</strong>
            {zone ? <Text color="gray"> ({zone.replaceAll("_", " ")})</Text> : null}
          </Text>
        )}
        {digest?.lastSentAt && (
          <Text size="1" color="gray">
            Last sent {formatWhen(digest.lastSentAt, zone)}
          </Text>
        )}
        {digest?.lastError && (
          <Text size="1" color="red">
            The last digest failed: {digest.lastError}
          </Text>
        )}
        {error && (
          <Text size="2" color="red" role="alert">
            {error}
          </Text>
        )}
      </Flex>
    </Card>
  );
}
