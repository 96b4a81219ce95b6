import { LoginForm } from "#web/features/auth/components/login-form";
import { AuthLayout } from "#web/features/marketing/components/auth-layout";

export const handle = { title: "Sign In" };

export function Component() {
  return (
    <AuthLayout
      title="Welcome back, agent"
      subtitle="Sign in to pick up where your robots left off."
      pitch={{
        title: "Your competitors shipped something new. Let's find out what.",
        points: ["Side-by-side website teardowns", "Four AI agents on call", "Evidence-backed fixes"],
      }}
    >
      <LoginForm />
    </AuthLayout>
  );
}
