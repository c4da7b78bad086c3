import * as Dialog from "@radix-ui/react-dialog";

/**
 * An image that opens at full size in a dialog when clicked (Esc, the Close button or a click outside
 * closes it): screenshots in descriptions, comments and the attachment list are read, not squinted at.
 */
export function ZoomableImage({
  src,
  alt,
  className,
}: {
  src: string | undefined;
  alt: string;
  className?: string;
}) {
  if (!src) return <img src={src} alt={alt} className={className} />;
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <button type="button" className="zoomable" aria-label={alt ? `Enlarge ${alt}` : "Enlarge image"}>
          <img src={src} alt={alt} className={className} />
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog lightbox" aria-describedby={undefined}>
          <Dialog.Title className="lightbox-title">{alt || "Image"}</Dialog.Title>
          <img src={src} alt={alt} className="lightbox-image" />
          <div className="row">
            <a href={src} target="_blank" rel="noreferrer">
              Open original
            </a>
            <Dialog.Close asChild>
              <button type="button">Close</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
