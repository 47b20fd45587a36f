/** A failed edit's message from the catalog, announced to screen readers. */
export function EditError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <p role="alert" className="error">
      {message}
    </p>
  )
}
