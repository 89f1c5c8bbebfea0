/** Whether an execution's status is final: nothing runs it again (a retry waiting for its turn is still pending). */
export const isFinal = (status: string) => status === 'success' || status === 'failed';
