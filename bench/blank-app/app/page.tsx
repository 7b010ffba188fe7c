export default function Page() {
  return <main>Blank</main>;
}
