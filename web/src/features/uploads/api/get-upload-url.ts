import { api } from '@/lib/api-client'

/** Asks the server for a one-time address to PUT one file to. */
export const getUploadUrl = () => api.post<{ uploadURL: string }>('/api/objects/upload')
