import type { UploadAnswer, UploadRequestPayload } from '#contracts/files.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /files/generate-url-to-upload: a file record and a presigned PUT URL (voice notes may come inline). */
export function requestUpload(
  payload: Partial<UploadRequestPayload> & Pick<UploadRequestPayload, 'name' | 'mimetype' | 'serviceId' | 'length'>,
): Promise<UploadAnswer> {
  return api.post<UploadAnswer>('/files/generate-url-to-upload', payload);
}

/** PUTs the file to the presigned URL with its content type, reporting progress from 0 to 1. */
export function uploadToUrl(url: string, blob: Blob, contentType: string, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`Upload failed with ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('Upload failed'));
    xhr.send(blob);
  });
}
