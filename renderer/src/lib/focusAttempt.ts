/**
 * An attempt's button in its message's timeline carries `data-attempt-id`. Closing the attempt gives the
 * focus back to that button: the control that closed it (or held the focus inside it) is gone, and the focus
 * would fall to the page.
 */
export function focusAttemptButton(attemptId: number): void {
  document.querySelector<HTMLElement>(`button[data-attempt-id="${attemptId}"]`)?.focus();
}
