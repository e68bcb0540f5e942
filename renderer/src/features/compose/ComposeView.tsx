export function ComposeView() {
  return <div className="p-6">Compose</div>;
}
